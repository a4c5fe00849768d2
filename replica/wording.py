"""Every sentence a visitor can read that the app writes itself (not the model), defined once.

Templates take the owner's name as ``{owner}``. The page's own notice for a full queue is in
``replica/web/assets/page.js``, where the browser shows it.
"""

MODEL_FAILED = "Sorry, I can't answer right now because my language model is unavailable. Please try again in a minute."
TOO_SLOW = "Sorry, my language model is taking too long to answer right now. Please try again in a minute."
BUSY = "Sorry, I'm answering too many people at once right now. Please try again in a minute."
BLANK_MESSAGE = "Your message looks empty. What would you like to know?"
TOO_LONG = "That message is too long for me. Please keep it under {limit:,} characters."
QUESTION_TOO_LONG = "The question is too long: at most {limit:,} characters."  # an MCP tool's error
NO_ANSWER = "Sorry, I couldn't put an answer together just now. Could you ask again, perhaps in other words?"
TOO_MANY_MESSAGES = "You've sent a lot of messages in the last hour. Please take a break and try again a little later."
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
# In place of a sentence of the model's that the reply check held back (replica/chat/reply_check.py).
NOT_IN_NOTES = "I don't have that in my notes."
NO_ADDRESS_YET = "I don't have your email address yet; you can leave it here."
NOTHING_PASSED_ON = "I haven't passed anything on yet; ask me anything, or leave your email here."
# In place of a promise the replica cannot keep ("I'll let you know"), when the visitor left an address.
OWNER_WILL_SEE = "{owner} will see your message and can write back to the address you left."
# Replies without a model (no key, or the model could not answer): the owner's approved answers, framed.
FROM_FAQ = "From {owner}'s FAQ: {answer}"
FROM_LEARNED = "{owner} answered this for an earlier visitor: {answer}"
FROM_PROFILE = "From {owner}'s profile:\n\n{answer}"  # a section the owner marked approved (Markdown, lists)
NO_WRITTEN_ANSWER = "I can only answer from {owner}'s written answers right now, and I don't have one for that."
QUESTION_KEPT = "I've passed your question on, so you'll get a proper answer."
LEAVE_AN_ADDRESS = "If you leave your email address, {owner} will get back to you."
LEAD_KEPT = "I did pass your email address on, though, so you'll hear back."
BOOK_A_TIME = "If you'd rather talk sooner, you can also book a time: {link}"  # after a lead, with OWNER_BOOKING
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
