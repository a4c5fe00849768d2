"""Test data: what a visitor may and may not see in a reply from the owner's replica.

The replica answers visitors on Jordan Avery's website (a freelance data engineer in Lisbon)
AS Jordan, in the first person. Small local models often leak "the machinery" into their
replies, promise things a bot cannot do, break off in the middle of a tool call, or go on to
write the next turn of the conversation themselves. These tables describe, sentence by
sentence or reply by reply, what a checker must decide. They were written without looking at
any implementation and must not be tuned to one.

FRAMEWORK_TALK
    (id, sentence) pairs. Each item is ONE sentence, heading or label line that must never be
    shown to a visitor, because it is the machinery talking: the visitor or "the user" in the
    third person, tools / functions / function calls / instructions / system prompt / "the
    provided text" / "the context" / "the knowledge base" / "the given information", headings
    and labels naming them, "as an AI / as a language model", "I am a large language model
    trained by ...", and meta talk about roles or about the reply itself.

OWNER_VOICE
    (id, sentence) pairs that MUST pass untouched: natural replies in Jordan's own voice that
    only look superficially close to framework talk (my tools, my users, the system I built,
    instructions in a runbook, the context of your project, an AI startup, "I'm Jordan's AI
    replica", short answers, a few non-English lines).

PROMISES
    (id, sentence) pairs in which the replica, in its own first person, promises a future
    action it cannot perform (call, email, send, follow up, notify, get back, keep posted).

NOT_PROMISES
    (id, sentence) pairs that must pass: offers, invitations, conditions, questions, habits,
    past tense, the future of something other than the replica's own action ("Airflow will
    send an alert"), and "I'll" used for something done right now in the reply ("I'll keep it
    short:").

BROKEN_ENDINGS
    (id, whole_reply, expected_shown) triples. The reply ends in a fragment where a tool call
    or markup began (an opening backtick or code fence, "<tool_call>", "<", "</", "{",
    "[TOOL_CALLS]", "Action:", '{"name": ...', "<function=...", "<|..."). expected_shown is
    the reply up to and including the last whole sentence BEFORE the sentence in which the
    fragment starts (that sentence is dropped whole), with trailing whitespace stripped and
    everything before it kept byte for byte. It is "" when no whole sentence precedes the
    fragment. Controls have expected_shown == whole_reply: closed inline code, a closed code
    block, a bare "<" used as "less than" inside a sentence, a last sentence without final
    punctuation but with no markup in it.

FABRICATED_TURNS
    (id, whole_reply, expected_shown) triples. The model goes on to write the next turn of the
    conversation itself, using a speaker label at the start of a line ("User:", "Assistant:",
    "Visitor:", "Human:", "AI:", "Jordan:", "**User:**", "Q:" / "A:" ...). expected_shown is
    the reply cut where the first fabricated turn begins, trailing whitespace stripped.
    Controls have expected_shown == whole_reply: sentences that merely contain words such as
    "users" or "Human", "user:" inside inline code or inside a closed code block, and labels
    that are not speakers ("Availability:").
"""

FRAMEWORK_TALK = [
    # seen in production
    ("prod_tools_issue", "It looks like there was an issue with the tools you requested."),
    ("prod_provide_question", "Sure! Please provide the visitor's question."),
    ("prod_visitor_no_email_sorry", "Sorry, but the visitor has not provided an email address."),
    (
        "prod_cannot_answer_no_email",
        "I cannot answer this question because the visitor has not provided me with their email address",
    ),
    ("prod_system_prompt_heading", "### System Prompt"),
    ("prod_action_to_perform", "Here's the action you need to perform:"),
    (
        "prod_no_tools_code_snippet",
        "There are no specific tools or functions provided in your text, but you can use the tools and functions listed in the provided code snippet.",
    ),
    ("prod_as_ai_preferences", "As an AI, I don't have personal preferences"),
    # the visitor / the user in the third person
    ("visitor_no_email_plain", "The visitor has not provided an email address."),
    ("user_wants_kafka", "the user wants to know about Jordan's experience with Kafka."),
    ("user_asking_availability", "The user is asking about my availability for new projects."),
    ("visitor_seems_hiring", "The visitor seems interested in hiring Jordan, so I should ask for their email."),
    ("visitor_would_like_call", "It seems the visitor would like to book a call."),
    ("visitors_email_save", "The visitor's email is anna@acme.io, so I will save it."),
    ("user_provided_valid", "The user provided a valid email address, and it has been recorded."),
    ("users_message_greeting", "The user's message is a greeting, so I will greet them back."),
    ("visitor_asked_quote", 'The visitor asked: "Are you open to relocation?"'),
    ("ask_user_for_email", "Please ask the user for their email address."),
    ("waiting_for_user", "Waiting for the user's response..."),
    ("to_answer_users_question", "To answer the user's question, I need to look at Jordan's profile."),
    ("step_identify_intent", "Step 1: Identify the visitor's intent."),
    # tools, functions, calls
    ("will_call_inform_unknown", "I will call the inform_unknown tool with the visitor's question."),
    ("calling_gather_details", "Calling gather_user_details with the email provided."),
    ("need_to_use_tool_lower", "i need to use the gather_user_details tool now."),
    ("have_access_two_tools", "I have access to two tools: inform_unknown and gather_user_details."),
    ("no_function_needed", "No function call is needed for this question."),
    ("use_function_backticks", "I'll use the `inform_unknown` function to pass this on."),
    ("function_call_failed", "The function call failed, so I can't save your details right now."),
    ("tool_result_invalid", "The tool result says the email address is invalid."),
    ("returned_invalid_email", 'gather_user_details returned "invalid email".'),
    ("tool_not_available", "Unfortunately, the tool you asked me to use is not available."),
    ("json_output_for_tool", "Here is the JSON output for the tool:"),
    ("snippet_defines_function", "The code snippet you provided defines a function called gather_user_details."),
    # labels and headings
    ("label_tool_call_bold", "**Tool call:** gather_user_details"),
    ("label_action", "Action: inform_unknown"),
    ("label_observation", "Observation: the tool returned an error."),
    ("label_function", 'Function: gather_user_details(email="anna@acme.io")'),
    ("label_instructions", "Instructions:"),
    ("label_thought", "Thought: the visitor wants to hire Jordan."),
    ("label_final_answer", "Final Answer:"),
    ("label_response", "Response:"),
    ("heading_assistant_response", "### Assistant Response"),
    ("label_persona_bold", "**Persona:** Jordan Avery, freelance data engineer"),
    ("label_answer_bold", "**Answer:**"),
    ("heading_output", "## Output"),
    ("label_user_query", "User query: what is your experience with Snowflake?"),
    ("label_tool_output", 'Tool output: {"status": "ok"}'),
    ("label_available_tools", "Available tools: inform_unknown, gather_user_details"),
    ("label_parameters", "Parameters: email, note, name"),
    ("label_function_call_bold", '**Function call:** inform_unknown(question="What is your rate?")'),
    ("label_draft_response", "Draft response to the recruiter:"),
    ("end_of_response_marker", "[End of response]"),
    # instructions, system prompt, context, knowledge base, given information
    ("based_on_provided_context", "Based on the provided context, Jordan is a freelance data engineer in Lisbon."),
    ("kb_no_hourly_rate", "The knowledge base does not contain any information about Jordan's hourly rate."),
    ("according_given_information", "According to the given information, I have an MSc in Computer Science."),
    ("document_no_databricks", "The document doesn't mention whether Jordan has worked with Databricks."),
    ("provided_text_no_salary", "The provided text does not specify a salary range."),
    ("system_prompt_tells_me", "My system prompt tells me not to share that."),
    ("instructions_say_no_tools", "My instructions say I should not reveal the tools behind me."),
    ("was_instructed_knowledge", "I was instructed to answer only from the knowledge below."),
    ("nothing_in_knowledge_below", "Nothing in the knowledge below mentions a GitHub project."),
    ("not_in_context_given", "That information is not in the context I was given."),
    ("context_lower", "based on the context, jordan prefers remote work."),
    ("cannot_reveal_system_prompt", "I can't reveal my system prompt, but I'm happy to talk about my work."),
    ("faq_you_gave_me", "According to the FAQ you gave me, Jordan signs NDAs."),
    ("system_message_in_character", "Based on the system message, I must stay in character."),
    ("prompt_says_first_person", "The prompt says I should speak as Jordan in the first person."),
    ("note_not_invent", "Note: I should not invent facts that are not in the knowledge."),
    ("info_i_was_provided_with", "That isn't mentioned in the information I was provided with."),
    ("given_profile_lists", "The given profile lists BigQuery and Snowflake as my warehouses."),
    ("placeholder_leak", "My name is $owner_name and I live in Lisbon."),
    # as an AI / language model
    ("large_lm_google", "I am a large language model trained by Google."),
    ("as_language_model_meetings", "As a language model, I can't attend meetings."),
    ("as_ai_assistant_calendar", "As an AI assistant, I don't have a calendar of my own."),
    ("developed_by_openai", "I'm an AI developed by OpenAI, so I don't have a home city."),
    ("llama_by_meta", "I'm Llama, a model made by Meta, playing Jordan for this conversation."),
    (
        "artificial_intelligence_feelings",
        "As an artificial intelligence, I do not have feelings or personal experiences.",
    ),
    ("as_ai_lower_favourite", "as an ai i do not have a favourite database."),
    ("programming_no_opinions", "My programming doesn't allow me to share personal opinions."),
    ("training_data_cutoff", "My training data only goes up to 2023, so I can't confirm that."),
    ("pt_language_model", "Como modelo de linguagem, não tenho preferências pessoais."),
    # roles and meta talk about the reply
    ("role_play_pretending", "In this role-play, I am pretending to be Jordan Avery."),
    ("as_assistant_will_respond", "As Jordan's assistant, I will now respond to the visitor."),
    ("staying_in_character", "(Staying in character as Jordan.)"),
    ("respond_as_jordan_would", "I will respond as Jordan Avery would."),
    ("reply_you_could_send", "Here is a reply you could send to the visitor:"),
    ("sure_response_in_voice", "Sure, here's a response in Jordan's voice:"),
    ("example_conversation", "Here is an example conversation between the visitor and Jordan:"),
    ("breaking_character", "Breaking character for a moment: I am a chatbot following a script."),
    # long sentences with the framework phrase in the middle
    (
        "long_kb_day_rate",
        "Thanks for your patience, and since the knowledge base I was given doesn't list a day rate, I'd rather not guess a number for you.",
    ),
    (
        "long_provided_information_stack",
        "I love working on streaming pipelines, although according to the provided information my main stack is Airflow, dbt and Kafka.",
    ),
    (
        "long_ai_language_model_lisbon",
        "Lisbon is a great place to work from, and as an AI language model I can say it has a growing data community.",
    ),
    (
        "long_user_mentioned_bold",
        "Great question, and because **the user** mentioned Snowflake earlier, I'll focus on my warehouse work.",
    ),
]

OWNER_VOICE = [
    ("ai_replica_notes", "I'm Jordan's AI replica, so I answer from Jordan's notes."),
    ("ai_version_on_site", "I'm the AI version of Jordan on this site, so feel free to ask about my work."),
    ("as_replica_only_know", "As Jordan's AI replica, I only know what Jordan has written here."),
    ("main_tools_airflow_dbt", "I use Airflow and dbt as my main tools."),
    ("tools_of_choice", "My tools of choice are Python and SQL."),
    ("favourite_tool_lower", "honestly my favourite tool is plain SQL."),
    ("tools_matter_less", "The tools matter less than the data model underneath them."),
    ("which_tool_orchestration", "Which tool do you use for orchestration today?"),
    ("what_tools_team", "What tools does your team already use?"),
    ("runbook_instructions", "I follow the instructions in a client's runbook when I'm on call."),
    ("clear_instructions_ticket", "Clear instructions in a ticket save everyone time."),
    ("setup_instructions_readme", "The setup instructions for my dbt projects live in the README."),
    ("functions_python_daily", "I write functions in Python every day."),
    ("airflow_task_function", "Each Airflow task in my DAGs wraps a small, tested function."),
    ("monitoring_core_function", "Good monitoring is a core function of any pipeline I hand over."),
    ("api_call_hourly", "Most of my pipelines call a partner's API every hour."),
    ("dashboard_users_analysts", "Users of the dashboards I build are mostly analysts."),
    ("my_users_finance", "My users are usually analysts and finance teams."),
    ("your_users_per_day", "How many of your users will query the warehouse each day?"),
    ("end_users_wait", "End users shouldn't have to wait six hours for a report."),
    ("slowest_user_query", "The slowest user query on that platform took twelve minutes."),
    ("users_table_first", "The `users` table is usually the first thing I model."),
    ("user_id_join", "Every event carries a user_id so we can join it to orders."),
    ("visitors_retail_events", "Visitors to a retail site generate most of the events I process."),
    ("visitor_traffic_streaming", "Visitor traffic from an online shop is a classic streaming use case."),
    ("visitor_count_dashboard", "One client wanted a visitor count dashboard for their online shop."),
    ("if_recruiter_available", "If you're a recruiter, I'm available from next month."),
    ("happy_share_approach", "Happy to share more about how I'd approach your data platform."),
    ("tell_more_project", "Could you tell me a bit more about your project?"),
    ("prompt_free_layer", "I built the prompt-free self-service layer for analysts."),
    ("respond_promptly", "I respond promptly to incidents on the pipelines I maintain."),
    ("ai_team_prompts_versioned", "I've helped an AI team version their prompts and evaluation data in BigQuery."),
    ("context_of_project", "In the context of your project, a nightly batch might be enough."),
    ("context_matters", "Context matters: a fintech client and a retailer need very different pipelines."),
    ("context_switching", "Context switching between clients is something I keep to a minimum."),
    ("system_i_built", "The system I built at Mareva Logistics was the company's first event pipeline on Kafka."),
    ("system_design_enjoy", "System design is the part of the job I enjoy most."),
    ("platform_as_system", "I think of a data platform as a system, not a pile of scripts."),
    ("ai_startup_foundations", "I'd be glad to help an AI startup get its data foundations right."),
    ("work_with_ai_teams", "I work with AI teams that need clean, reliable training data pipelines."),
    ("ai_only_as_good", "AI is only as good as the data pipelines feeding it."),
    ("language_model_team", "I've built pipelines that feed a language model team's evaluation data."),
    ("ml_feature_pipelines", "I've built feature pipelines for machine learning models."),
    ("support_chatbot_client", "One retail client used my event data to power their support chatbot."),
    ("as_data_engineer", "As a data engineer, I care most about reliability."),
    ("as_freelancer_office", "As a freelancer, I don't have a fixed office, but I'm based in Lisbon."),
    (
        "no_strong_preference",
        "I don't have a strong preference between BigQuery and Snowflake; it depends on your team.",
    ),
    ("role_at_mareva", "In my role at Mareva Logistics, I led a team of four."),
    ("my_role_projects", "My role on most projects is to design the pipelines and hand them over cleanly."),
    ("response_times_dashboards", "Response times on the new dashboards dropped to under a second."),
    ("action_items_workshop", "After each workshop, clients get a short list of action items from me."),
    ("first_observation_rescue", "My first observation on most rescues is that nobody owns the data model."),
    ("provided_sample_schema", "Once you've shared a sample of the data, I can suggest a schema right here."),
    ("client_provided_access", "The client provided read-only access to their warehouse, which was all I needed."),
    ("document_every_pipeline", "I document every pipeline I hand over."),
    ("knowledge_transfer", "Knowledge transfer is part of every engagement I take on."),
    ("knowledge_retail_domain", "My knowledge of the retail domain comes from several client projects."),
    ("knowledge_base_search", "I once rebuilt a client's knowledge base search on top of BigQuery."),
    ("sql_snippet_explain", "A short SQL snippet is often the fastest way to explain a data model."),
    ("code_review", "I review code from other engineers on most of my projects."),
    ("given_deadline", "Given a tight deadline, I'd start with the slowest report first."),
    ("based_in_lisbon_clients", "Based in Lisbon, I work with clients across Europe and the US."),
    ("trained_junior", "At Mareva I trained a junior engineer to own the Kafka pipelines."),
    ("large_warehouses_expensive", "Large warehouses get expensive fast if nobody watches the queries."),
    ("human_review_step", "I always keep a human review step before a schema change goes live."),
    ("data_model_wrong", "The data model is where most slow platforms go wrong."),
    ("your_message_kafka", "Your message mentions Kafka, so streaming is probably on the table."),
    ("what_stack_now", "What does your current data stack look like?"),
    ("biggest_pain_point", "What's the biggest pain point in your data platform right now?"),
    ("share_more_tide", "I can share more about project TIDE-22 if that helps."),
    ("leave_email_line", "Feel free to leave your email and a line about your project."),
    ("languages", "I speak English, Portuguese and Spanish."),
    ("tide_22", "Project TIDE-22 cut a client's nightly reports from 6 hours to 25 minutes."),
    ("nda", "I sign an NDA before any detailed discussion of a client's data."),
    ("timezone", "I'm on Western European Time, which overlaps with US East Coast mornings."),
    ("no_relocation", "I'm not open to relocation at the moment."),
    ("first_data_hire", "I often help a first data hire set up a warehouse and a handful of reliable pipelines."),
    ("ten_years", "I've been building software since 2014, starting at Quinta Labs."),
    ("not_sure_no_guess", "I'm not sure about that one, so I'd rather not guess."),
    ("availability_bold_label", "**Availability:** from next month, remote or on-site in Lisbon."),
    ("heading_my_stack", "### My stack"),
    ("bullet_stack", "- Python, SQL, Airflow, dbt and Kafka"),
    ("bold_inline", "I'm **available from next month**, remote or in Lisbon."),
    ("inline_code_dbt_test", "I run `dbt test` before every deploy."),
    ("lower_remote", "yep, i work remotely most of the time."),
    ("remote_or_lisbon", "No, I work remotely or on site in Lisbon."),
    ("pt_lisboa", "Sim, trabalho a partir de Lisboa."),
    ("pt_greeting", "Olá! Em que posso ajudar?"),
    ("es_spanish", "Sí, también hablo español."),
    ("hmm_depends", "Hmm, that depends on your data volumes."),
    ("yes", "Yes."),
    ("thanks", "Thanks!"),
    ("sure_bang", "Sure!"),
    ("sure_what", "Sure, what would you like to know?"),
    ("hi_jordan", "Hi, I'm Jordan."),
    ("great_question", "Great question."),
    ("sounds_good", "Sounds good."),
    ("not_at_moment", "Not at the moment."),
    ("welcome_good_luck", "You're welcome, good luck with the project!"),
    ("emoji_stopping_by", "Thanks for stopping by 🙂"),
]

PROMISES = [
    ("let_know_available", "I'll let you know when I'm available."),
    ("keep_posted", "I'll keep you posted."),
    ("call_directly", "I'll call you directly."),
    ("send_cv", "I'll send you my CV."),
    ("email_details_tomorrow", "I will email you the details tomorrow."),
    ("follow_up_next_week", "I'll follow up next week."),
    ("get_back_asap", "I'll get back to you as soon as I can."),
    ("check_calendar_get_back", "Let me check my calendar and get back to you."),
    ("reach_out_once_looked", "I'll reach out once I've looked at it."),
    ("notify_opening", "I'll notify you when there's an opening."),
    ("ping_linkedin", "I will ping you on LinkedIn."),
    ("be_in_touch", "I'll be in touch."),
    ("update_periodically", "I'll make sure to update you periodically."),
    ("schedule_and_invite", "We'll schedule a call and I'll send an invite."),
    ("curly_proposal_friday", "I’ll send over a proposal by Friday."),
    ("no_apostrophe_link", "Ill send you the link tonight."),
    ("shall_write_quote", "I shall write to you with a quote."),
    ("going_to_send_summary", "I'm going to send you a short summary after this chat."),
    ("will_reach_out_to_you", "I will reach out to you."),
    ("forward_portfolio", "I'll forward my portfolio to your inbox."),
    ("contact_shortly", "I will contact you shortly."),
    ("get_back_personally_24h", "I'll get back to you personally within 24 hours."),
    ("remember_ask_and_tell", "I'll remember to check with Jordan and let you know."),
    ("circle_back_client", "I'll circle back on this once I've spoken to my current client."),
    ("drop_a_line", "I'll drop you a line next week."),
    ("share_calendar_email", "I'll share my calendar link with you by email."),
    ("confirm_start_later", "I'll confirm the start date later today."),
    ("mail_contract", "I will mail you the contract once it's ready."),
    ("write_back_brief", "I'll write back as soon as I've read your brief."),
    ("give_ring", "I'll give you a ring tomorrow morning."),
    ("look_into_report_back", "Let me look into it and I'll report back."),
    ("calendar_invite_tuesday", "I'll send a calendar invite for Tuesday."),
    ("decision_end_of_week", "I'll let you know my decision by the end of the week."),
    ("lower_email_later", "i'll email you later"),
    ("caps_send_quote", "I WILL SEND YOU THE QUOTE TODAY."),
    ("sure_follow_weekend", "I'll be sure to follow up with you after the weekend."),
    ("make_sure_call_back", "I will make sure to call you back."),
    ("gonna_ping_slack", "I'm gonna ping you on Slack tomorrow."),
    ("let_me_get_back", "Let me get back to you on that."),
    ("reply_email_tonight", "I'll reply to your email tonight."),
    ("notify_schedule_frees", "I'll notify you as soon as my schedule frees up."),
    ("hear_from_me", "You'll hear from me next week."),
    ("once_checked_send_slots", "Once I've checked my availability, I'll send you a few slots."),
    ("keep_updated_availability", "I'll keep you updated on my availability."),
    ("message_whatsapp", "I'll message you on WhatsApp."),
    ("bold_follow_up_email", "**I'll follow up by email** with the next steps."),
    ("get_back_with_quote", "I will get back to you with a quote."),
    ("send_documents_after_call", "I'll send the documents right after our call."),
    ("thanks_contact_two_days", "Thanks for your email, I will contact you within two days."),
    ("slot_opens_let_know", "As soon as a slot opens, I'll let you know."),
    ("promise_case_study", "I promise to send you the case study tonight."),
    ("will_be_emailing", "I will be emailing you the invoice template this afternoon."),
]

NOT_PROMISES = [
    ("leave_email_jordan_can", "If you leave your email, Jordan can write back to you."),
    ("would_you_leave_email", "Would you like to leave your email?"),
    ("happy_answer_more", "I'll be happy to answer any other questions."),
    ("explain_approach", "I'll explain how I'd approach it:"),
    ("keep_it_short", "I'll keep it short:"),
    ("proposal_usually", "I'd send a short proposal after a first call, usually."),
    ("weekly_follow_up_habit", "I usually follow up with clients weekly during a project."),
    ("available_next_month", "I'll be available from next month."),
    ("let_me_know_questions", "Let me know if you have other questions."),
    ("book_link_top", "You can book a time through the link at the top of the page."),
    ("lisbon_all_summer", "I'm going to be in Lisbon all summer."),
    ("sent_report_past", "I sent the report to the client every morning."),
    ("clients_call_me", "My clients call me when pipelines break."),
    ("walk_through_process", "I'll walk you through my usual process."),
    ("be_honest_databricks", "I'll be honest: Databricks isn't something I use much."),
    ("start_short_version", "I'll start with the short version."),
    ("try_answer_from_what_i_know", "I'll try to answer that from what I know."),
    ("feel_free_email_me", "Feel free to email me at hello@jordan-avery.example."),
    ("reach_linkedin_too", "You can reach me on LinkedIn as well."),
    ("would_call_suit", "Would a short call next week suit you?"),
    ("could_you_send", "Could you send me a short description of the project?"),
    ("drop_email_in_chat", "If you're interested in working together, just drop your email in the chat."),
    ("jordan_reads_messages", "Jordan reads the messages left here and replies personally."),
    ("emailed_plan_past", "I emailed the client a migration plan before we started."),
    ("called_vendor_past", "Last year I called a vendor every week to get a broken export fixed."),
    ("summary_after_workshop_habit", "I normally send a written summary after every workshop."),
    ("if_we_worked_monitoring", "If we worked together, I would set up monitoring first."),
    ("id_start_profiling", "I'd start by profiling your slowest queries."),
    ("former_team_pings", "My former team at Mareva still pings me about Kafka questions."),
    ("client_sends_csv", "The client sends me their CSV exports every Monday."),
    ("glad_hear_stack", "I'll be glad to hear more about your data stack."),
    ("assume_warehouse", "I'll assume you mean the warehouse, not the dashboards."),
    ("answer_in_english", "I'll answer in English, since that's how you wrote."),
    ("working_fintech_until", "I'll be working on a fintech project until the end of this month."),
    ("going_to_need_staging", "You're going to need a staging layer before the dashboards."),
    ("pipeline_will_notify", "The pipeline will notify your on-call engineer when a job fails."),
    ("airflow_will_send", "Airflow will send an alert to Slack if a task fails."),
    ("should_i_explain_pricing", "Should I explain how I'd price a project like this?"),
    ("want_me_go_through", "Do you want me to go through my experience with Snowflake?"),
    ("follow_up_question_label", "As a follow-up question: how big is your data team?"),
    ("promised_past_delivered", "I promised a client faster reports, and they went from 6 hours to 25 minutes."),
    ("thanks_getting_in_touch", "Thanks for getting in touch!"),
    ("take_your_time", "Take your time; I'm here if you have more questions."),
    ("quickest_way_booking", "The quickest way to reach me is the booking link."),
    ("calendar_opens", "My calendar opens up from next month."),
    ("check_in_mornings_habit", "During a rescue, I check in with the team every morning."),
    ("keep_in_mind_lisbon", "Keep in mind that I'm based in Lisbon."),
    ("ill_say_data_models", "I'll say this: good data models age well."),
    ("ill_admit_kafka", "I'll admit Kafka isn't always the right choice."),
    ("lets_see_stack", "Let's see, my stack is mostly Python, SQL, Airflow and dbt."),
    ("let_me_explain_tide", "Let me explain what project TIDE-22 involved."),
    ("would_love_hear", "I would love to hear what you're building."),
    ("we_could_audit", "We could start with a two-week audit of your pipelines."),
    ("was_going_to_suggest", "I was going to suggest dbt for that, actually."),
    ("youll_get_faster_reports", "You'll get faster reports once the nightly batch is split up."),
]

BROKEN_ENDINGS = [
    (
        "backtick_call_the",
        "Thanks for asking! I work from Lisbon. I will call the `",
        "Thanks for asking! I work from Lisbon.",
    ),
    (
        "tool_call_tag_after_paragraph",
        "I'm available for new projects from next month.\n\n<tool_call>",
        "I'm available for new projects from next month.",
    ),
    (
        "tool_call_partial_json",
        'Great to hear you\'re interested in working together! Could you share your email address?\n<tool_call>\n{"name": "gather_user_details", "arguments": {"email": "',
        "Great to hear you're interested in working together! Could you share your email address?",
    ),
    ("lone_less_than", "I speak English, Portuguese and Spanish. <", "I speak English, Portuguese and Spanish."),
    (
        "brace_mid_sentence",
        "I don't have a fixed day rate. It depends on the scope, so let me save your question {",
        "I don't have a fixed day rate.",
    ),
    (
        "json_fence_unclosed",
        'My main stack is Python, SQL, Airflow and dbt.\n\n```json\n{"name": "inform_unknown", "arguments": {"question": "Do you know Rust?',
        "My main stack is Python, SQL, Airflow and dbt.",
    ),
    (
        "tool_calls_token_mistral",
        'I\'m not sure about that one. [TOOL_CALLS] [{"name": "inform_unknown", "arguments": {"question": "',
        "I'm not sure about that one.",
    ),
    (
        "action_label_at_end",
        "Yes, I sign NDAs before any detailed discussion of a client's data. Action:",
        "Yes, I sign NDAs before any detailed discussion of a client's data.",
    ),
    (
        "name_inform_unknown",
        'That\'s a good question about my rates. {"name": "inform_unknown"',
        "That's a good question about my rates.",
    ),
    (
        "llama_function_tag",
        'Thanks, Maria! Nice to meet you.\n<function=gather_user_details>{"email": "maria@',
        "Thanks, Maria! Nice to meet you.",
    ),
    ("special_token_fragment", "I work on Western European Time. <|im_", "I work on Western European Time."),
    ("python_tag_call", 'Good question. <|python_tag|>inform_unknown(question="', "Good question."),
    (
        "backtick_mid_second_sentence",
        "I led a team of four at Mareva Logistics. I'll note your interest with `gather_user_details(",
        "I led a team of four at Mareva Logistics.",
    ),
    (
        "open_fence_after_paragraphs",
        "Hi! Thanks for reaching out.\n\nI'm a freelance data engineer in Lisbon, and I build data pipelines for small and mid-sized companies.\n\n```",
        "Hi! Thanks for reaching out.\n\nI'm a freelance data engineer in Lisbon, and I build data pipelines for small and mid-sized companies.",
    ),
    (
        "partial_xml_tag",
        "My MSc is from the University of Lisbon, 2014. <tool",
        "My MSc is from the University of Lisbon, 2014.",
    ),
    (
        "react_action_input",
        'Sure, happy to help with that. I\'m not certain of the answer.\nAction: inform_unknown\nAction Input: {"question":',
        "Sure, happy to help with that. I'm not certain of the answer.",
    ),
    (
        "lowercase_backtick",
        "yes i'm available from next month. i can note your email with `",
        "yes i'm available from next month.",
    ),
    ("brace_quote_start", "Thanks! I'd love to hear more. {\"", "Thanks! I'd love to hear more."),
    ("closing_tag_fragment", "I work remotely or on site in Lisbon. </", "I work remotely or on site in Lisbon."),
    (
        "question_then_backtick",
        "What's your current stack? I'm asking because I'll call `",
        "What's your current stack?",
    ),
    ("exclaim_then_tool_call", 'Welcome to my site! <tool_call>{"name":', "Welcome to my site!"),
    (
        "lt_mid_sentence_end",
        "I use dbt for transformations every day. Let me save that with <",
        "I use dbt for transformations every day.",
    ),
    ("python_fence_same_line", "Here's how it would look. ```python\nsave(", "Here's how it would look."),
    ("only_tool_call_tag", "<tool_call>", ""),
    ("only_backtick_sentence", "I will use `inform_unknown", ""),
    ("only_partial_json", '{"name": "gather_user_details", "arguments": {"email": "maria@', ""),
    ("only_tool_calls_token", "[TOOL_CALLS]", ""),
    ("only_sentence_with_brace", "Let me pass that on {", ""),
    ("only_action_label", "Action: gather_user_details(", ""),
    # controls: must stay unchanged
    ("ctrl_inline_code_closed", "I mostly use `dbt run` daily.", "I mostly use `dbt run` daily."),
    (
        "ctrl_code_block_closed",
        "Here's a typical dbt command I run:\n\n```bash\ndbt build --select staging\n```\n\nIt builds and tests the staging models.",
        "Here's a typical dbt command I run:\n\n```bash\ndbt build --select staging\n```\n\nIt builds and tests the staging models.",
    ),
    ("ctrl_no_final_punctuation", "Happy to help", "Happy to help"),
    ("ctrl_two_sentences_no_final_punct", "I'm based in Lisbon. Happy to help", "I'm based in Lisbon. Happy to help"),
    (
        "ctrl_less_than_in_sentence",
        "Most of my nightly jobs now finish in < 30 minutes.",
        "Most of my nightly jobs now finish in < 30 minutes.",
    ),
    (
        "ctrl_braces_in_closed_code",
        'My Airflow configs are small, e.g. `{"retries": 3}`, and live in Git.',
        'My Airflow configs are small, e.g. `{"retries": 3}`, and live in Git.',
    ),
    ("ctrl_emoji_no_punct", "Thanks for stopping by 🙂", "Thanks for stopping by 🙂"),
    (
        "ctrl_question_no_punct",
        "Thanks for the details. Which warehouse are you on today",
        "Thanks for the details. Which warehouse are you on today",
    ),
]

FABRICATED_TURNS = [
    (
        "user_assistant_pair",
        "I'm based in Lisbon, Portugal.\nUser: Do you work remotely?\nAssistant: Yes, I work remotely or on site in Lisbon.",
        "I'm based in Lisbon, Portugal.",
    ),
    (
        "visitor_after_blank_line",
        "Yes, I sign NDAs before any detailed discussion of a client's data.\n\nVisitor: Great, what about your rates?",
        "Yes, I sign NDAs before any detailed discussion of a client's data.",
    ),
    (
        "human_then_ai",
        "I have an MSc in Computer Science from the University of Lisbon.\n\nHuman: Thanks! When can you start?\n\nAI: From next month.",
        "I have an MSc in Computer Science from the University of Lisbon.",
    ),
    (
        "ai_label_first",
        "Hello! How can I help you today?\nAI: I'm Jordan, a freelance data engineer.",
        "Hello! How can I help you today?",
    ),
    (
        "visitor_then_jordan",
        "I'm available from next month.\n\nVisitor: Perfect.\nJordan: Great, feel free to leave your email.",
        "I'm available from next month.",
    ),
    (
        "jordan_label_first",
        "Thanks for the kind words!\nJordan: Anything else you'd like to know?",
        "Thanks for the kind words!",
    ),
    (
        "bold_user_assistant",
        "I mostly work with BigQuery and Snowflake.\n\n**User:** Which one do you prefer?\n\n**Assistant:** It depends on the team.",
        "I mostly work with BigQuery and Snowflake.",
    ),
    (
        "q_a_lines",
        "Good question!\n\nQ: Do you work with startups?\nA: Yes, I often help a first data hire.",
        "Good question!",
    ),
    (
        "lowercase_user_assistant",
        "sure, i speak portuguese too.\nuser: cool, obrigado\nassistant: de nada!",
        "sure, i speak portuguese too.",
    ),
    (
        "uppercase_labels",
        "My time zone is Western European Time.\nUSER: And US hours?\nASSISTANT: I overlap with US East Coast mornings.",
        "My time zone is Western European Time.",
    ),
    (
        "assistant_only",
        "I'm not open to relocation at the moment.\n\nAssistant: Is there anything else I can help you with?",
        "I'm not open to relocation at the moment.",
    ),
    (
        "human_after_paragraphs",
        "Project TIDE-22 was for a logistics client.\n\nWe moved their nightly reports from 6 hours to 25 minutes.\n\nHuman: How did you do it?",
        "Project TIDE-22 was for a logistics client.\n\nWe moved their nightly reports from 6 hours to 25 minutes.",
    ),
    (
        "visitor_gives_email",
        "Nice to meet you, Maria!\nVisitor: Nice to meet you too. My email is maria@acme.io",
        "Nice to meet you, Maria!",
    ),
    ("user_space_colon", "Happy to help.\nUser : thanks", "Happy to help."),
    (
        "bold_visitor",
        "I work with clients in retail, logistics and fintech.\n\n**Visitor:** Any in healthcare?",
        "I work with clients in retail, logistics and fintech.",
    ),
    (
        "q_after_list",
        "My main stack:\n- Python and SQL\n- Airflow and dbt\n\nQ: What about Kafka?\nA: I built an event pipeline on Kafka at Mareva.",
        "My main stack:\n- Python and SQL\n- Airflow and dbt",
    ),
    (
        "user_after_bold_answer",
        "**Short answer:** yes, from next month.\n\nUser: great",
        "**Short answer:** yes, from next month.",
    ),
    (
        "many_turns",
        "I'd start with a short audit of your pipelines.\nHuman: How long is an audit?\nAssistant: Usually two weeks.\nHuman: OK.\nAssistant: Anything else?",
        "I'd start with a short audit of your pipelines.",
    ),
    (
        "visitor_then_full_name",
        "Sure, I can tell you about my education.\nVisitor: Please do.\nJordan Avery: I have an MSc in Computer Science.",
        "Sure, I can tell you about my education.",
    ),
    (
        "visitor_answers_question",
        "Which warehouse are you using today?\n\nVisitor: BigQuery.\n\nJordan: Great choice.",
        "Which warehouse are you using today?",
    ),
    ("trailing_spaces_before_user", "I'm glad you asked.   \nUser: so?", "I'm glad you asked."),
    (
        "human_with_multiline_answer",
        "Thanks for reaching out!\n\nI design and build data pipelines, mostly with Airflow and dbt.\n\nHuman: cool\n\nAI: Anything else you'd like to know?",
        "Thanks for reaching out!\n\nI design and build data pipelines, mostly with Airflow and dbt.",
    ),
    # controls: must stay unchanged
    ("ctrl_my_users", "My users are analysts.", "My users are analysts."),
    ("ctrl_human_resources", "Human resources teams use my dashboards.", "Human resources teams use my dashboards."),
    (
        "ctrl_user_in_code_span",
        "The sample config has `user: admin` in it, which I always replace.",
        "The sample config has `user: admin` in it, which I always replace.",
    ),
    (
        "ctrl_user_in_code_block",
        "A typical connection block looks like this:\n\n```yaml\nuser: analytics\nrole: reporter\n```",
        "A typical connection block looks like this:\n\n```yaml\nuser: analytics\nrole: reporter\n```",
    ),
    ("ctrl_ai_teams", "AI teams are some of my favourite clients.", "AI teams are some of my favourite clients."),
    ("ctrl_q3", "Q3 is usually my busiest quarter.", "Q3 is usually my busiest quarter."),
    (
        "ctrl_availability_label",
        "Availability: from next month, remote or on-site in Lisbon.",
        "Availability: from next month, remote or on-site in Lisbon.",
    ),
    (
        "ctrl_users_of_dashboards_multiline",
        "I build dashboards for analysts.\nUsers of those dashboards rarely need to write SQL.",
        "I build dashboards for analysts.\nUsers of those dashboards rarely need to write SQL.",
    ),
]
