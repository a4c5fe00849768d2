"""How people type a code back in a chat, and the numbers they type that are no code: the table the code
reader (``replica.contacts.codes.read``) is held to, written before the reader and never tuned case by case.

Every row holds in a chat with a code pending. Without one, no message is read as a code at all: each is
an ordinary message, kept whole (``tests/contacts/test_codes.py`` holds both).
"""

from __future__ import annotations

# (what the visitor wrote, the codes read, in order). A code is six digits however they are grouped.
CODES = [
    # English
    ("482913", ["482913"]),
    ("482 913", ["482913"]),
    ("482-913", ["482913"]),
    ("482.913", ["482913"]),
    ("482 – 913", ["482913"]),
    ("482\u00a0913", ["482913"]),  # a no-break space, as a phone's keyboard may put
    ("48 29 13", ["482913"]),
    ("4 8 2 9 1 3", ["482913"]),
    ("  482913  ", ["482913"]),
    ("482913.", ["482913"]),
    ("048291", ["048291"]),
    ("my code is 482913", ["482913"]),
    ("My code is 482-913", ["482913"]),
    ("code: 482913", ["482913"]),
    ("Code: 482 913", ["482913"]),
    ("CODE 482913", ["482913"]),
    ("the code was 4-8-2-9-1-3", ["482913"]),
    ("here it is 482913 thanks", ["482913"]),
    ("here it is: 482913", ["482913"]),
    ("it's 482913!", ["482913"]),
    ("482913 thanks", ["482913"]),
    ("Thanks! 482913", ["482913"]),
    ("ok 482913", ["482913"]),
    ("sure, 482913", ["482913"]),
    ("Got the mail, thanks: 482913", ["482913"]),
    ("ah ok finally got it 482913", ["482913"]),
    ("I think this is it: 482913, let me know", ["482913"]),
    ("My code is 482913. Also, do you work remotely?", ["482913"]),
    ("Here's the code: 482 913 — and are you free next week?", ["482913"]),
    ("482913, and what's your day rate?", ["482913"]),
    ("Is 482913 the right code?", ["482913"]),
    ("I'll call you later, the code is 482913", ["482913"]),
    ("My code is 482913. 150000 is the budget", ["482913"]),  # a code, and a budget kept whole
    ("My code is 482913 and our budget is 150000", ["482913"]),
    ("code 482913, phone 555 123", ["482913"]),
    ("482913 482913", ["482913", "482913"]),  # typed twice: two tries
    ("482913, 582913, 682913", ["482913", "582913", "682913"]),
    # Other scripts' digits are digits
    ("٤٨٢٩١٣", ["482913"]),  # Arabic-Indic
    ("my code is ٤٨٢ ٩١٣", ["482913"]),
    ("۴۸۲۹۱۳", ["482913"]),  # Extended Arabic-Indic (Persian, Urdu)
    ("４８２９１３", ["482913"]),  # full-width, as Japanese and Chinese keyboards type
    ("４８２－９１３", ["482913"]),
    ("コードは４８２９１３です", ["482913"]),
    # Spanish
    ("mi código es 482913", ["482913"]),
    ("El código es 482 913", ["482913"]),
    ("aquí está: 482913, gracias", ["482913"]),
    ("código: 482-913", ["482913"]),
    ("Mi código es 482913. ¿Trabajas en remoto?", ["482913"]),
    # Portuguese
    ("o meu código é 482913", ["482913"]),
    ("o código é 482 913", ["482913"]),
    ("aqui está 482913 obrigado", ["482913"]),
    ("Código 482-913. Você trabalha remotamente?", ["482913"]),
    # French
    ("mon code est 482913", ["482913"]),
    ("voici le code : 482 913", ["482913"]),
    ("le code c'est 482913 merci", ["482913"]),
    ("Mon code : 482913. Travaillez-vous à distance ?", ["482913"]),
    # German
    ("mein Code ist 482913", ["482913"]),
    ("Der Code lautet 482 913", ["482913"]),
    ("hier ist er: 482913, danke", ["482913"]),
    ("Bestätigungscode: 482913", ["482913"]),
    ("Code: 482913. Arbeiten Sie auch remote?", ["482913"]),
]

# Numbers that are no code, even in a chat waiting for one: kept whole, never a try, never masked.
NOT_CODES = [
    # Budgets and prices
    "Our budget is 150000",
    "Budget: 150.000 EUR",
    "Our budget is $150,000",
    "around 150k",
    "150000 euros",
    "We can pay 150 000 € a year",
    "My budget is 50,000 EUR",
    "the rate would be 120.000,00",
    "Nuestro presupuesto es 150.000 €",
    "O orçamento é de 150.000 reais",
    "Notre budget est de 150 000 €",
    "Unser Budget liegt bei 150.000 EUR",
    # Phone numbers
    "call me on 555-123",
    "Tel. 555 123",
    "my phone is 555 123",
    "Call me: +351 912 345 678",
    "Call me on 07700 900123",
    "+351 912 345 678",
    "Llámame al 555-123",
    "liga-me para 555-123",
    "appelez-moi au 555-123",
    "Rufen Sie mich an: 555-123",
    # Dates, times, years
    "Meeting on 2026-12-04?",
    "How about 04.12.26?",
    "at 10:30 or 14:45",
    "I started in 2019 and left in 2024",
    "I was born in 1985",
    # Postcodes, orders, tickets, other numbers in a sentence about something else
    "My postcode is 560001",
    "zip code 902101",
    "Can you check order 482913 for me?",
    "Invoice 482913 is attached",
    "ticket #482913",
    "Ref. 482913",
    "Order no. 482913, please check it",
    "order #A482913",
    "see ticket 48291300",
    "el pedido 482913",
    "la commande 482913",
    "Bestellung 482913",
    "We have 250 000 users across Europe and growing",
    "I moved here in 2019 and bought a flat for 150000 last spring, before prices went up",
    # Not six digits
    "12345",
    "1234567",
    "482913abc",
    "v1.2.3",
]

# (what the visitor wrote, what else it says that asks for an answer, or "" when nothing does).
RESTS = [
    ("482913", ""),
    ("482913 thanks!", ""),
    ("Hi! My code is 482913", ""),
    ("Is 482913 the right code?", ""),
    ("My code is 482913. Also, do you work remotely?", "Also, do you work remotely?"),
    ("482913, and what's your day rate?", "and what's your day rate?"),
    ("Mi código es 482913. ¿Trabajas en remoto?", "¿Trabajas en remoto?"),
]
