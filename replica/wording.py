"""Every sentence a visitor can read that the app writes itself (not the model), defined once.

Templates take the owner's name as ``{owner}``. The page's own notice for a message it could not send
is in ``replica/web/assets/page.js``, where the browser shows it.
"""

MODEL_FAILED = "Sorry, I can't answer right now because my language model is unavailable. Please try again in a minute."
TOO_SLOW = "Sorry, my language model is taking too long to answer right now. Please try again in a minute."
# Before a reply made without a model because every model lane is busy (a spike of visitors).
SPIKE = "Many visitors are here at once right now, so this is a quick reply; {owner} will see your message."
BLANK_MESSAGE = "Your message looks empty. What would you like to know?"
TOO_LONG = "That message is too long for me. Please keep it under {limit:,} characters."
QUESTION_TOO_LONG = "The question is too long: at most {limit:,} characters."  # an MCP tool's error
NO_ANSWER = "Sorry, I couldn't put an answer together just now. Could you ask again, perhaps in other words?"
TOO_MANY_MESSAGES = "You've sent a lot of messages in the last hour. Please take a break and try again a little later."
# Refused at the door of the line for a reply (replica/web/line.py), at once, before any waiting.
ONE_AT_A_TIME = "One message at a time, please: wait for the reply to your last one, then send the next."
ADDRESS_BUSY = "Several messages from your network are being answered right now; please send yours again in a moment."
LINE_FULL = "Very many visitors are here at once right now; please send your message again in a minute."
# In the owner's record of a conversation, once an hour, in place of the messages its limits refused.
LIMITED_NOTE = "(A message was refused here: the hourly message limit was reached.)"
DAILY_LIMIT = "I've answered as many questions as I can for today. Please come back tomorrow."
QUESTION_PASSED_ON = "I don't have an answer to that yet, so I've passed your question on; you'll get a proper answer."
LEAD_PASSED_ON = "Thank you, I've passed your details on, and you'll hear back soon."
SAVE_FAILED = (
    "I'm sorry: I couldn't save what you left me just now, because of a problem on my side. "
    "Please try again a little later."
)
EMAIL_INVALID = "That email address doesn't look right to me. Could you check it and send it again?"
LEAD_NOTED = "I've passed your email address on, so you'll hear back."
# Without a model, a message that leaves an address and asks nothing.
LEAD_ONLY = "Thanks, I've passed your email address on; is there something you would like to ask?"
# In place of a sentence of the model's that the reply check held back (replica/chat/reply_check/checker.py).
NOT_IN_NOTES = "I don't have that in my notes."
NO_ADDRESS_YET = "I don't have your email address yet; you can leave it here."
NOTHING_PASSED_ON = "I haven't passed anything on yet; ask me anything, or leave your email here."
# In place of a promise the replica cannot keep ("I'll let you know"), when the visitor left an address.
OWNER_WILL_SEE = "{owner} will see your message and can write back to the address you left."
# Replies without a model (no key, or the model could not answer): the owner's approved answers, framed.
FROM_FAQ = "From {owner}'s FAQ: {answer}"
FROM_LEARNED = "{owner} answered this for an earlier visitor: {answer}"
FROM_PROFILE = "From {owner}'s profile:\n\n{answer}"  # a section the owner marked approved (Markdown, lists)
# Without a model, a message close to an approved question but not sure enough to quote: ask first.
DID_YOU_MEAN = "Did you mean: “{question}”"
# Before an approved answer written in another language than the visitor's ({language}: its name, in theirs).
IN_ANOTHER_LANGUAGE = "This answer is written in {language}:"
NO_WRITTEN_ANSWER = "I can only answer from {owner}'s written answers right now, and I don't have one for that."
QUESTION_KEPT = "I've passed your question on, so you'll get a proper answer."
LEAVE_AN_ADDRESS = "If you leave your email address, {owner} will get back to you."
LEAD_KEPT = "I did pass your email address on, though, so you'll hear back."
BOOK_A_TIME = "If you'd rather talk sooner, you can also book a time: {link}"  # after a lead, with OWNER_BOOKING
# Verified contacts (VERIFY_EMAIL_URL): a code mailed to a lead's address, typed back in the chat.
CODE_SENT = "I've sent a 6-digit code to {email}: type it here to confirm the address is yours."
CODE_SENT_REQUIRED = (
    "Please type here the 6-digit code I've sent to {email}: once the address is confirmed, it is passed on."
)
CODE_RESENT = "I've sent a new 6-digit code to {email}: type it here when it arrives."
CODE_CONFIRMED = "Thank you: {email} is confirmed as your address."
CODE_WRONG = "That code doesn't match the one sent to {email}; {left} {tries} left."
CODE_NONE_MATCH = "None of those {checked} codes matches the one sent to {email}; {left} {tries} left."
CODE_NO_TRIES = 'That code doesn\'t match, and that was the last try for it; say "send it again" for a new one.'
CODE_TRIES_TODAY = "That's as many code tries as {email} may have today, so it stays unconfirmed."
CODE_EXPIRED = 'That code has expired (a code works for {minutes} minutes); say "send it again" for a new one.'
CODE_ON_ITS_WAY = "The code is still on its way to {email}; it can take a minute."
CODE_NOT_SENT = 'The code could not be mailed to {email}; say "send it again" to try once more.'
CODE_FAILED = (
    "Sorry, I couldn't check that code just now, because of a problem on my side. Please try again in a minute."
)
CODE_CAPPED = "{email} can't get another code right now; please try again in an hour."
CODE_CAPPED_TODAY = "{email} can't get another code today."
CODE_UNSENDABLE = (
    "I can't mail a code to {email}: the mail service takes only plain letters, digits and . _ - + before the @."
)
# After a sentence saying no code goes (or came): the lead is kept; with LEAD_VERIFICATION=required, passed on.
CODE_KEPT = "Your address is kept all the same."
CODE_PASSED_UNCONFIRMED = "I've passed your address on all the same, marked as not confirmed."
CODE_ONE_PER_MESSAGE = "I've passed on {email} too, marked as not confirmed: one code goes out per message."
# A code typed with more in the message: the code is answered by the app, the rest asked again.
CODE_AND_MORE = "You also wrote “{rest}”: ask me that in a message of its own, and I'll answer it."
NOT_PASSED_ON = "Sorry, your message could not be passed on just now. Please try again in a minute."
CUT_OFF = "(My answer was cut off there. Ask me to go on if you'd like the rest.)"
UNEXPECTED = "Sorry, something went wrong on my side. Please try again."

# A conversation the owner has taken over (a handoff), and given back.
HANDED_OVER = "{owner} is answering you in person now, and gets your messages directly. Their replies will appear here."
PASSED_ON = "Passed on to {owner}."
OWNER_STEPPED_AWAY = "{owner} has stepped away; I'm answering again, as {owner}'s replica."
OWNER_HANDED_BACK = "{owner} handed back to me; I'm answering again, as {owner}'s replica."
OWNER_LABEL = "{owner} · in person"  # heads the owner's own words on the page
# The owner's answer to a question the visitor asked, put in their conversation as the owner's words.
ANSWER_BACK = "You asked: “{question}”\n\n{answer}"

# The sentences a reply without a model is made of, in the languages a visitor may write in (a question
# in a language the owner has no answers in is passed on, and told so in that language). The key is the
# English sentence above; a sentence missing here is shown in English.
TRANSLATIONS: dict[str, dict[str, str]] = {
    DID_YOU_MEAN: {
        "es": "Quizá quieres saber: “{question}”",
        "pt": "Talvez queira saber: “{question}”",
        "fr": "Vouliez-vous dire : “{question}”",
        "de": "Meinten Sie: “{question}”",
    },
    IN_ANOTHER_LANGUAGE: {
        "es": "Esta respuesta está escrita en {language}:",
        "pt": "Esta resposta está escrita em {language}:",
        "fr": "Cette réponse est écrite en {language} :",
        "de": "Diese Antwort ist auf {language} geschrieben:",
    },
    NO_WRITTEN_ANSWER: {
        "es": "Ahora mismo solo puedo responder con las respuestas escritas de {owner}, y no tengo ninguna para eso.",
        "pt": "Neste momento só posso responder com as respostas escritas de {owner}, e não tenho nenhuma para isso.",
        "fr": "Pour l'instant, je ne peux répondre qu'avec les réponses écrites de {owner}, et je n'en ai pas pour cela.",
        "de": "Im Moment kann ich nur mit den schriftlichen Antworten von {owner} antworten, und dafür habe ich keine.",
    },
    QUESTION_KEPT: {
        "es": "He pasado tu pregunta, así que recibirás una respuesta de verdad.",
        "pt": "Passei a sua pergunta, por isso vai receber uma resposta a sério.",
        "fr": "J'ai transmis votre question : vous recevrez une vraie réponse.",
        "de": "Ich habe Ihre Frage weitergegeben, Sie bekommen also eine richtige Antwort.",
    },
    LEAVE_AN_ADDRESS: {
        "es": "Si dejas tu dirección de email, {owner} te responderá.",
        "pt": "Se deixar o seu endereço de email, {owner} responde-lhe.",
        "fr": "Si vous laissez votre adresse e-mail, {owner} vous répondra.",
        "de": "Wenn Sie Ihre E-Mail-Adresse hinterlassen, meldet sich {owner} bei Ihnen.",
    },
    LEAD_NOTED: {
        "es": "He pasado tu dirección de email, así que tendrás noticias.",
        "pt": "Passei o seu endereço de email, por isso terá notícias.",
        "fr": "J'ai transmis votre adresse e-mail : vous aurez des nouvelles.",
        "de": "Ich habe Ihre E-Mail-Adresse weitergegeben, Sie hören also von uns.",
    },
    LEAD_KEPT: {
        "es": "Eso sí, he pasado tu dirección de email, así que tendrás noticias.",
        "pt": "Ainda assim, passei o seu endereço de email, por isso terá notícias.",
        "fr": "J'ai bien transmis votre adresse e-mail, cependant : vous aurez des nouvelles.",
        "de": "Ihre E-Mail-Adresse habe ich aber weitergegeben, Sie hören also von uns.",
    },
    LEAD_ONLY: {
        "es": "Gracias, he pasado tu dirección de email; ¿quieres preguntar algo?",
        "pt": "Obrigado, passei o seu endereço de email; há alguma coisa que queira perguntar?",
        "fr": "Merci, j'ai transmis votre adresse e-mail ; souhaitez-vous demander quelque chose ?",
        "de": "Danke, ich habe Ihre E-Mail-Adresse weitergegeben; möchten Sie etwas fragen?",
    },
    SAVE_FAILED: {
        "es": "Lo siento: no he podido guardar lo que me has dejado por un problema de mi lado. Inténtalo de nuevo un poco más tarde.",
        "pt": "Peço desculpa: não consegui guardar o que me deixou por um problema do meu lado. Tente de novo um pouco mais tarde.",
        "fr": "Désolé : je n'ai pas pu enregistrer ce que vous m'avez laissé, à cause d'un problème de mon côté. Réessayez un peu plus tard.",
        "de": "Entschuldigung: Ich konnte Ihre Nachricht wegen eines Problems auf meiner Seite nicht speichern. Bitte versuchen Sie es etwas später noch einmal.",
    },
    FROM_FAQ: {
        "es": "De las preguntas frecuentes de {owner}: {answer}",
        "pt": "Das perguntas frequentes de {owner}: {answer}",
        "fr": "D'après la FAQ de {owner} : {answer}",
        "de": "Aus den häufigen Fragen von {owner}: {answer}",
    },
    FROM_LEARNED: {
        "es": "{owner} respondió esto a un visitante anterior: {answer}",
        "pt": "{owner} respondeu a isto a um visitante anterior: {answer}",
        "fr": "{owner} a répondu à cela pour un visiteur précédent : {answer}",
        "de": "{owner} hat das einem früheren Besucher beantwortet: {answer}",
    },
    FROM_PROFILE: {
        "es": "Del perfil de {owner}:\n\n{answer}",
        "pt": "Do perfil de {owner}:\n\n{answer}",
        "fr": "D'après le profil de {owner} :\n\n{answer}",
        "de": "Aus dem Profil von {owner}:\n\n{answer}",
    },
    MODEL_FAILED: {
        "es": "Lo siento, ahora no puedo responder porque mi modelo de lenguaje no está disponible. Inténtalo de nuevo en un minuto.",
        "pt": "Peço desculpa, agora não consigo responder porque o meu modelo de linguagem está indisponível. Tente de novo daqui a um minuto.",
        "fr": "Désolé, je ne peux pas répondre pour l'instant, car mon modèle de langage est indisponible. Réessayez dans une minute.",
        "de": "Entschuldigung, ich kann gerade nicht antworten, weil mein Sprachmodell nicht erreichbar ist. Bitte versuchen Sie es in einer Minute noch einmal.",
    },
    TOO_SLOW: {
        "es": "Lo siento, mi modelo de lenguaje está tardando demasiado en responder. Inténtalo de nuevo en un minuto.",
        "pt": "Peço desculpa, o meu modelo de linguagem está a demorar demasiado a responder. Tente de novo daqui a um minuto.",
        "fr": "Désolé, mon modèle de langage met trop de temps à répondre. Réessayez dans une minute.",
        "de": "Entschuldigung, mein Sprachmodell braucht gerade zu lange für eine Antwort. Bitte versuchen Sie es in einer Minute noch einmal.",
    },
    SPIKE: {
        "es": "Ahora mismo hay muchas visitas a la vez, así que esta es una respuesta rápida; {owner} verá tu mensaje.",
        "pt": "Neste momento há muitas visitas ao mesmo tempo, por isso esta é uma resposta rápida; {owner} vai ver a sua mensagem.",
        "fr": "Beaucoup de visiteurs sont là en même temps en ce moment, alors voici une réponse rapide ; {owner} verra votre message.",
        "de": "Gerade sind sehr viele Besucher gleichzeitig hier, deshalb ist das eine kurze Antwort; {owner} wird Ihre Nachricht sehen.",
    },
    DAILY_LIMIT: {
        "es": "Ya he respondido a todas las preguntas que puedo por hoy. Vuelve mañana, por favor.",
        "pt": "Já respondi a todas as perguntas que posso por hoje. Volte amanhã, por favor.",
        "fr": "J'ai répondu à autant de questions que possible pour aujourd'hui. Revenez demain, s'il vous plaît.",
        "de": "Ich habe für heute so viele Fragen beantwortet, wie ich kann. Bitte kommen Sie morgen wieder.",
    },
}


# The languages' names, in each language a visitor may write in (for IN_ANOTHER_LANGUAGE).
LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "en": "English",
        "es": "Spanish",
        "pt": "Portuguese",
        "fr": "French",
        "de": "German",
        "it": "Italian",
        "nl": "Dutch",
    },
    "es": {
        "en": "inglés",
        "es": "español",
        "pt": "portugués",
        "fr": "francés",
        "de": "alemán",
        "it": "italiano",
        "nl": "neerlandés",
    },
    "pt": {
        "en": "inglês",
        "es": "espanhol",
        "pt": "português",
        "fr": "francês",
        "de": "alemão",
        "it": "italiano",
        "nl": "neerlandês",
    },
    "fr": {
        "en": "anglais",
        "es": "espagnol",
        "pt": "portugais",
        "fr": "français",
        "de": "allemand",
        "it": "italien",
        "nl": "néerlandais",
    },
    "de": {
        "en": "Englisch",
        "es": "Spanisch",
        "pt": "Portugiesisch",
        "fr": "Französisch",
        "de": "Deutsch",
        "it": "Italienisch",
        "nl": "Niederländisch",
    },
}


def language_name(language: str, in_language_of: str) -> str:
    """The name of ``language`` as a visitor writing ``in_language_of`` calls it (in English otherwise)."""
    names = LANGUAGE_NAMES.get(in_language_of, LANGUAGE_NAMES["en"])
    return names.get(language, LANGUAGE_NAMES["en"].get(language, language))


def in_language(sentence: str, language: str) -> str:
    """``sentence`` (one of the English sentences above, a template still) in ``language`` when
    :data:`TRANSLATIONS` has it, else as it is."""
    return TRANSLATIONS.get(sentence, {}).get(language, sentence)
