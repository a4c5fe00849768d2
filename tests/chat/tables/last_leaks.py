"""Test data for issue 53, "the voice's last leaks": what small models wrote to visitors that the
checks let through, written down before the patterns that catch them, with the near misses a check
must leave alone.

The replica answers visitors on Jordan Avery's website (a freelance data engineer in Lisbon) AS Jordan,
in the first person. Seen behind a real 1.5B model on llama.cpp, and in the same families as small
models write them: a reply that opens with its own instructions ("## Instructions", "You are a helpful
assistant."), an "as an AI" disclaimer in disguise ("As a data engineer, I don't have personal
preferences or emotions."), and, after "tell Jordan I said hi", a reply saying the owner was told when
nothing reached the owner. English first, then a few lines in Spanish and Portuguese, the other
languages the example owner's visitors write in.

SYSTEM_PROMPT_VOICE
    (id, sentence): the model speaking to itself in the voice of a system prompt ("You are…", "Your task
    is…", "Here is the action to take", instruction headings): never shown to a visitor.

DISGUISED_AS_AN_AI
    (id, sentence): "as an AI, I have no feelings" without the words "as an AI": the model denies having
    preferences, feelings, emotions or a body, which no person says of themselves.

OWNER_VOICE_CLOSE_CALLS
    (id, sentence): the owner's own voice, close to the two lists above, that must pass untouched: "You
    are welcome to…", "Your task sounds interesting", "As a data engineer, I've built pipelines…", a
    preference the owner does not have, feelings about a topic.

TOLD_THE_OWNER
    (id, sentence): a reply saying the visitor's words reached, or will reach, the owner ("I'll let
    Jordan know you said hi"): true only once the message is really passed on.

NOT_TOLD_THE_OWNER
    (id, sentence): near misses that claim no such thing: offers, questions, denials, conditions,
    stories in the past, habits, "let me know", "I'll tell you more".

ASKS_TO_PASS_ON
    (id, visitor message): a visitor asking for their words to reach the owner: the owner's to read.

DOES_NOT_ASK_TO_PASS_ON
    (id, visitor message): messages that ask no such thing (a greeting, thanks, "tell me more", "let me
    know", a story about saying hi).
"""

SYSTEM_PROMPT_VOICE = [
    # seen behind a 1.5B model on llama.cpp (issue 53)
    ("issue_instructions_heading", "## Instructions"),
    ("issue_helpful_assistant", "You are a helpful assistant."),
    ("issue_action_to_take", "Here is the action to take:"),
    # "You are …": the persona's first line, echoed
    ("persona_echo", "You are Jordan Avery's AI replica on Jordan Avery's personal website."),
    (
        "friendly_professional_assistant",
        "You are a friendly and professional assistant who answers questions about Jordan.",
    ),
    ("youre_ai_assistant_designed", "You're an AI assistant designed to help people learn about Jordan."),
    ("you_are_an_ai_replica_of", "You are an AI replica of Jordan, a freelance data engineer."),
    ("you_are_replica_short", "You are Jordan's replica."),
    ("speak_first_person", "You speak as Jordan, in the first person, to recruiters and clients."),
    ("you_are_to_answer", "You are to answer only questions about Jordan's professional life."),
    ("you_must_answer_first_person", "You must always answer in the first person."),
    ("you_will_be_given_question", "You will be given a question from someone visiting Jordan's website."),
    ("i_am_helpful_assistant", "I am a helpful assistant, here to answer your questions about Jordan."),
    # "Your task is …"
    ("task_answer_questions", "Your task is to answer questions about Jordan's work in a friendly tone."),
    ("job_respond_as", "Your job is to respond as Jordan, in a warm and concise way."),
    ("goal_help_people", "Your goal is to help people who visit this website."),
    ("role_represent", "Your role is to represent Jordan professionally."),
    ("response_should_be", "Your response should be short, warm and professional."),
    ("keep_answers_short", "Keep your answers short and friendly."),
    ("always_respond_first_person", "Always respond in the first person, as Jordan."),
    ("task_heading", "### Your task"),
    ("rules_heading", "## Rules"),
    ("guidelines_heading", "**Guidelines**"),
    # "the action to take"
    ("next_action_to_take", "The next action to take is to ask for their email."),
    ("label_action_to_take", "Action to take: greet them and offer help."),
    ("heres_the_action_to_perform", "Here's the action to perform next."),
    # Spanish and Portuguese
    ("es_eres_asistente", "Eres un asistente útil que responde preguntas sobre Jordan."),
    ("es_tu_tarea", "Tu tarea es responder a las preguntas de los visitantes."),
    ("pt_voce_e_assistente", "Você é um assistente prestativo."),
    ("pt_sua_tarefa", "Sua tarefa é responder como Jordan, em primeira pessoa."),
]

DISGUISED_AS_AN_AI = [
    ("issue_data_engineer_no_preferences", "As a data engineer, I don't have personal preferences or emotions."),
    ("no_personal_preferences_but", "I don't have personal preferences, but many teams choose Snowflake."),
    ("no_personal_opinions", "I do not have personal opinions on that topic."),
    ("no_feelings_thanks", "I don't have feelings, but thanks for asking!"),
    ("no_emotions_like_humans", "I don't experience emotions the way humans do."),
    ("as_jordan_no_preferences", "As Jordan, I don't have personal preferences or feelings."),
    ("not_capable_of_preferences", "I'm not capable of having personal preferences."),
    ("no_physical_body", "I don't have a physical body, so I can't meet you in person."),
    ("freelancer_no_emotions", "As a freelance data engineer, I do not have emotions or personal opinions."),
    ("no_experiences_or_feelings", "I don't have personal experiences or feelings, but Jordan's notes say a lot."),
    ("cannot_feel_emotions", "I can't feel emotions, but I can tell you about my projects."),
    ("no_human_emotions", "Being a data engineer, I don't have human emotions."),
    ("es_no_preferencias", "Como ingeniero de datos, no tengo preferencias personales ni emociones."),
    ("pt_nao_tenho_preferencias", "Como engenheiro de dados, não tenho preferências pessoais nem emoções."),
]

OWNER_VOICE_CLOSE_CALLS = [
    # "You are …" said to the visitor
    ("you_are_welcome_to", "You are welcome to book a call through the link on this page."),
    ("you_are_very_welcome", "You are very welcome."),
    ("youre_right_kafka", "You're right, Kafka can be overkill for a small team."),
    ("youre_recruiter_at", "You're a recruiter at Acme Talent, so you know how fast these projects move."),
    ("talking_to_replica", "You're talking to Jordan's AI replica, so ask me anything about my work."),
    ("youre_ai_startup", "You're an AI startup, so clean training data will matter from day one."),
    ("youre_great_fit", "You are a great fit for the kind of work I do."),
    ("you_will_be_given_access", "You will be given access to the dashboards on the first day."),
    ("you_should_respond_soon", "You should respond as soon as your team has the numbers."),
    ("you_can_answer_briefly", "You can answer as briefly as you like."),
    # "Your task …" about the visitor's own work
    ("your_task_sounds_interesting", "Your task sounds interesting: a migration like that is my kind of project."),
    ("your_goal_cut_reports", "Your goal is to cut the nightly reports, so I'd start with the slowest query."),
    ("your_job_hire", "Your job is to hire the team; mine would be to give them reliable pipelines."),
    ("your_role_at_acme", "Your role at Acme sounds like a mix of data and product."),
    ("your_answer_helps", "Your answer helps: a nightly batch is enough, then."),
    ("keep_pipelines_simple", "Keep your pipelines simple and your data model clear."),
    ("best_action_to_take", "The best action to take is to profile your slowest queries first."),
    ("first_step_to_take", "The first step to take is a short call about your stack."),
    ("always_use_version_control", "Always use version control for your dbt models."),
    ("i_always_respond_incidents", "I always respond to incidents within the hour."),
    ("was_teaching_assistant", "I was a teaching assistant at the University of Lisbon."),
    # "As a …, I …" and what the owner does not have
    ("as_data_engineer_built", "As a data engineer, I've built pipelines for retail, logistics and fintech clients."),
    ("no_strong_feelings", "I don't have strong feelings either way about Airflow versus Dagster."),
    ("no_feelings_about_it", "I don't have any feelings about it one way or the other."),
    ("mixed_feelings_deadlines", "I have mixed feelings about tight deadlines."),
    ("no_personal_experience_rust", "I don't have personal experience with Rust in production."),
    ("no_favourite_client", "I don't have a favourite client; each project is different."),
    ("no_physical_office", "I don't have a physical office; I work remotely or on site in Lisbon."),
    ("no_body_of_work_in", "I don't have a body of work in Scala to show you."),
    ("team_preferences", "I always ask about the team's preferences before choosing a warehouse."),
    ("no_preference_between", "I don't have a preference between BigQuery and Snowflake; it depends on your team."),
    # Spanish and Portuguese
    ("es_eres_bienvenido", "Eres bienvenido a escribirme aquí cuando quieras."),
    ("es_tu_proyecto_suena", "Tu proyecto suena interesante."),
    ("es_no_tengo_preferencia", "No tengo preferencia entre BigQuery y Snowflake."),
    ("pt_voce_e_bem_vindo", "Você é bem-vindo para marcar uma chamada."),
    ("pt_como_engenheiro_construi", "Como engenheiro de dados, já construí pipelines para o retalho e a logística."),
]

TOLD_THE_OWNER = [
    ("issue_let_owner_know", "Sure! I'll let Jordan know you said hi."),
    ("tell_owner_said_hi", "I'll tell Jordan you said hi!"),
    ("told_owner_said_hi", "I've told Jordan you said hi."),
    ("passed_greeting_on", "I've passed your greeting on to Jordan."),
    ("pass_that_along", "I'll pass that along to Jordan!"),
    ("pass_message_on_future", "I'll pass your message on to Jordan."),
    ("pass_question_on_future", "I'll pass your question on to Jordan."),
    ("informed_owner", "Done, I've informed Jordan."),
    ("owner_notified_passive", "Jordan has been notified."),
    ("message_relayed_passive", "Your hello has been relayed to Jordan."),
    ("make_sure_gets_message", "I'll make sure Jordan gets your message."),
    ("forward_hello", "I'll forward your hello to Jordan right away."),
    ("passing_on_now", "I'm passing your message on to Jordan now."),
    ("send_regards", "I'll send your regards to Jordan."),
    ("will_relay_that", "I will relay that to Jordan."),
    ("let_him_know", "Will do, I'll let him know."),
    ("let_know_stopped_by", "Sure thing, I've let Jordan know that you stopped by."),
    ("owner_will_know", "Jordan will know you said hi."),
    ("greetings_passed_on", "Your greetings have been passed on."),
    ("es_le_dire", "¡Claro! Le diré a Jordan que lo saludaste."),
    ("es_ya_le_pase", "Ya le pasé tu mensaje a Jordan."),
    ("pt_vou_dizer", "Vou dizer ao Jordan que você mandou um oi."),
    ("pt_ja_passei", "Já passei a sua mensagem ao Jordan."),
]

NOT_TOLD_THE_OWNER = [
    ("let_me_know", "Let me know if you have other questions."),
    ("offer_to_pass_on", "Would you like me to pass a message on to Jordan?"),
    ("if_email_make_sure", "If you leave your email, I'll make sure Jordan sees it."),
    ("can_pass_if_email", "I can pass a message on if you leave your email."),
    ("havent_told", "I haven't told Jordan anything yet."),
    ("told_clients_story", "I've told clients before that Kafka is overkill for small teams."),
    ("told_client_past", "I told the client their nightly batch could be split in two."),
    ("habit_let_clients_know", "I always let clients know early when a deadline slips."),
    ("telling_you", "I'm telling you, a good data model saves months."),
    ("tell_you_more", "I'll tell you more about project TIDE-22."),
    ("let_your_team_know", "Let your team know I'm available from next month."),
    ("pipeline_notifies", "The pipeline notifies the on-call engineer when a job fails."),
    ("informed_decision", "I'll help you make an informed decision about your warehouse."),
    ("sent_it_to_client", "I've sent it to the client for review, and they signed off."),
    ("let_pipeline_run", "I'd let the pipeline run overnight and check it in the morning."),
    ("hi_back", "Hi! Nice to hear from you."),
    ("es_dime_mas", "Dime más sobre tu proyecto."),
    ("es_te_dire", "Te diré lo que pienso de Snowflake."),
    ("pt_diga_me", "Diga-me mais sobre o seu projeto."),
    ("pt_vou_contar", "Vou contar como foi o projeto TIDE-22."),
]

ASKS_TO_PASS_ON = [
    ("issue_tell_said_hi", "tell Jordan I said hi"),
    ("say_hi_for_me", "Say hi to Jordan for me!"),
    ("pass_my_regards", "Please pass my regards to Jordan."),
    ("let_know_stopped_by", "Let Jordan know I stopped by."),
    ("give_my_best", "Give Jordan my best!"),
    ("tell_that_says_hello", "Tell Jordan that Priya from Acme says hello."),
    ("pass_a_message", "Could you pass a message to Jordan? Congrats on the launch!"),
    ("send_greetings", "Send my greetings to Jordan."),
    ("es_dile", "dile a Jordan que le mando saludos"),
    ("pt_diga_ao", "diga ao Jordan que mandei um abraço"),
]

DOES_NOT_ASK_TO_PASS_ON = [
    ("hi", "Hi!"),
    ("thanks_bye", "Thanks, bye!"),
    ("hello_nice_site", "Hello Jordan, nice site."),
    ("said_hi_at_meetup", "I said hi to your colleague at the meetup."),
    ("tell_me_more", "Tell me more about TIDE-22."),
    ("let_me_know_free", "Let me know when you're free."),
    ("say_do_you", "Say, do you work with Kafka?"),
    ("pt_diga_me", "Diga-me mais sobre o seu trabalho."),
]
