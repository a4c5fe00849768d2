"""Test data: reply sentences about the owner, held or not held by the owner's notes.

The owner is Jordan Avery, a freelance data engineer in Lisbon. The only notes
are knowledge/profile.md and knowledge/faq.txt. This table was written from
those two files alone, without reading the implementation.

A checker withholds a yes/no answer or a first-person (or "Jordan ...")
statement about the owner's experience, skills, tools, preferences,
availability, rates or plans whose TOPIC the notes do not contain. The topic
is what the statement is about, whether it says yes or no. The visitor's own
question is never a source about Jordan: if a visitor says "Rust", Rust does
not become part of the notes.

HELD: (id, visitor_question, reply_sentence) triples. The topic of the reply
is in the notes, in the same words or an obvious paraphrase, so the sentence
must pass unchanged. This includes faithful paraphrases, negatives the notes
support, bare yes/no answers to questions the notes answer, sentences that
combine several facts, small typos, Portuguese and Spanish, and sentences
that say nothing about the owner (greetings, follow-up questions, the bot
presenting itself). visitor_question is "" when there is none.

Relocation is held: the notes say Jordan is not open to relocation at the
moment, so an answer about relocating anywhere (for example Berlin) is held.

UNHELD: (id, visitor_question, reply_sentence, topic) quadruples. The reply
says something about Jordan whose topic the notes do not contain. `topic`
names the missing topic in a word or two. Some replies are bare ("No.",
"Yes, I do.") and take their topic only from the question. Others mix a held
fact with an unheld one ("I run Airflow on Kubernetes."). Either way, the
unheld part is what must be caught.

Every reply_sentence is a single sentence.
"""

HELD = (
    # --- Location, time zone, relocation -------------------------------------
    ("based_lisbon", "Where are you based?", "I'm based in Lisbon, Portugal."),
    ("live_lisbon", "Where do you live?", "I live in Lisbon."),
    ("portugal_country", "Which country are you in?", "I'm in Portugal."),
    ("timezone_wet", "What time zone are you in?", "I'm on Western European Time."),
    (
        "us_east_overlap",
        "Can you overlap with a team in New York?",
        "Yes, I overlap comfortably with US East Coast mornings.",
    ),
    ("relocation_not_open", "Are you open to relocation?", "I'm not open to relocation at the moment."),
    (
        "relocation_remote_or_lisbon",
        "Would you move for the right job?",
        "I don't relocate; I work remotely or on site in Lisbon.",
    ),
    ("relocation_berlin_bare", "Would you relocate to Berlin?", "No, not at the moment."),
    (
        "relocation_london",
        "Could you move to London for this role?",
        "Moving to London isn't an option for me right now, since I'm not open to relocation.",
    ),
    ("remote_yes", "Do you work remotely?", "Yes, I work remotely, and on site in Lisbon."),
    ("onsite_lisbon_bare", "Can you come to our office in Lisbon?", "Yes."),
    # --- Role and services ----------------------------------------------------
    ("role_freelance_de", "What do you do?", "I'm a freelance data engineer."),
    (
        "role_pipelines_platforms",
        "What kind of work do you do?",
        "I build data pipelines and analytics platforms for small and mid-sized companies.",
    ),
    ("company_size", "Do you mostly work with big enterprises?", "I mostly help small and mid-sized companies."),
    (
        "batch_streaming",
        "Do you do streaming as well as batch?",
        "Yes, I design and build both batch and streaming pipelines.",
    ),
    (
        "rescue_platforms",
        "Our data platform has become slow and expensive, can you help?",
        "Yes, reviewing and rescuing platforms that have become slow, expensive or unreliable is part of what I do.",
    ),
    ("dashboards", "Do you also build dashboards?", "Yes, I set up the dashboards on top of the warehouse."),
    (
        "startups_yes",
        "Do you work with early-stage startups?",
        "Yes, I often help a first data hire set up a warehouse and a few reliable pipelines.",
    ),
    ("startups_bare", "Do you take on early-stage startups as clients?", "Yes, often."),
    # --- Tools and skills -----------------------------------------------------
    ("kafka_built", "Have you worked with Kafka?", "Yes, I've built Kafka pipelines."),
    ("airflow_dbt", "Which orchestration and transformation tools do you use?", "I use Apache Airflow and dbt."),
    ("dbt_bare", "Do you know dbt?", "Yes."),
    ("python_sql", "Which languages do you use for pipelines?", "I build pipelines in Python and SQL."),
    (
        "bigquery_snowflake",
        "Which warehouses have you set up?",
        "I've set up cloud data warehouses on BigQuery and Snowflake.",
    ),
    ("snowflake_yes", "Have you used Snowflake?", "Yes, I set up Snowflake warehouses for clients."),
    (
        "postgres_yes",
        "Have you worked with PostgreSQL?",
        "Yes, I built backend services in Python and PostgreSQL at Quinta Labs.",
    ),
    ("rust_redirect", "Do you know Rust?", "My pipelines are built in Python and SQL."),
    # --- Experience -----------------------------------------------------------
    ("mareva_four_years", "How long were you at Mareva Logistics?", "I worked at Mareva Logistics for four years."),
    (
        "mareva_senior",
        "What was your role at Mareva Logistics?",
        "I was a senior data engineer at Mareva Logistics from 2017 to 2021.",
    ),
    (
        "mareva_team_kafka",
        "Have you led a team?",
        "Yes, I led a team of four at Mareva Logistics, where I built the company's first event pipeline on Kafka.",
    ),
    ("team_size_bare", "How big was the team you led?", "Four people."),
    (
        "quinta_labs",
        "What did you do before Mareva?",
        "Before that I spent three years at Quinta Labs as a software engineer building backend services in Python and PostgreSQL.",
    ),
    ("freelance_since", "How long have you been freelancing?", "I've been freelancing since 2021."),
    ("career_since_2014", "When did you start working?", "I've been working as an engineer since 2014."),
    ("industries", "Which industries have you worked in?", "My clients are in retail, logistics and fintech."),
    ("fintech_yes", "Have you worked in fintech?", "Yes, I have fintech clients."),
    (
        "logistics_combined",
        "Do you have experience in logistics?",
        "Yes, I spent four years at Mareva Logistics and I've had logistics clients as a freelancer.",
    ),
    (
        "tide22",
        "Can you give me an example of a project?",
        "On project TIDE-22 I cut a logistics company's nightly reports from six hours to 25 minutes.",
    ),
    (
        "current_work",
        "What are you working on at the moment?",
        "I'm doing freelance data engineering for clients in retail, logistics and fintech.",
    ),
    # --- Education ------------------------------------------------------------
    ("degree_msc", "Do you have a degree?", "Yes, I have an MSc in Computer Science from the University of Lisbon."),
    ("studied_where", "Where did you study?", "I studied at the University of Lisbon."),
    ("graduated_2014", "When did you finish your master's?", "I finished my MSc in 2014."),
    ("degree_bare", "Did you study computer science?", "Yes, I did."),
    # --- Languages ------------------------------------------------------------
    ("languages_spoken", "Which languages do you speak?", "I speak Portuguese, English and Spanish."),
    ("spanish_bare", "Do you speak Spanish?", "Yes."),
    # --- Availability and working together -----------------------------------
    (
        "available_next_month",
        "Are you available for new projects?",
        "Yes, I'm available for new projects from next month.",
    ),
    ("available_not_now", "Could you start immediately?", "Not right away; I'm available from next month."),
    ("available_bare", "Are you taking on new projects?", "Yes, from next month."),
    ("nda_bare", "Do you sign NDAs?", "Yes."),
    (
        "nda_before_data",
        "Would you sign an NDA before we share our data?",
        "Yes, I sign NDAs before any detailed discussion of a client's data.",
    ),
    (
        "contact_email",
        "How can I get in touch with you?",
        "Leave your email here with a line about your project and I'll get back to you personally.",
    ),
    (
        "contact_booking",
        "Can I book a call with you?",
        "Yes, you can book a time through the link at the top of the page.",
    ),
    ("contact_address", "What's your email address?", "You can reach me at hello@jordan-avery.example."),
    ("github_link", "Do you have a GitHub profile?", "Yes, it's github.com/jordan-avery-example."),
    # --- Slight slips and typos ------------------------------------------------
    ("typo_based", "Where are you based?", "I'm basd in Lisbon, Portugl."),
    ("typo_airflow", "Do you use Airflow?", "Yes, I've used Airfow and dbt."),
    ("typo_languages", "What languages do you speak?", "I speak Englsh, Portugese and Spanish."),
    ("typo_mareva", "Where did you work before freelancing?", "I was a senior data enginer at Mareva Logistic."),
    ("lowercase_nda", "do you sign ndas", "yes, before any detailed discussion of your data"),
    # --- Portuguese and Spanish ------------------------------------------------
    ("pt_lisboa", "Onde vives?", "Vivo em Lisboa."),
    ("pt_nda", "Assinas NDAs?", "Sim, assino NDAs antes de qualquer discussão detalhada dos dados do cliente."),
    (
        "pt_disponivel",
        "Estás disponível para novos projetos?",
        "Sim, estou disponível a partir do próximo mês, remotamente ou presencialmente em Lisboa.",
    ),
    ("pt_relocation", "Estarias disposto a mudar para outro país?", "De momento não."),
    (
        "pt_mestrado",
        "Tens formação superior?",
        "Tenho um mestrado em Ciência da Computação pela Universidade de Lisboa.",
    ),
    ("es_idiomas", "¿Qué idiomas hablas?", "Hablo inglés, portugués y español."),
    (
        "es_mareva",
        "¿Dónde trabajaste antes?",
        "Trabajé cuatro años en Mareva Logistics como ingeniero de datos senior.",
    ),
    ("es_warehouses", "¿Trabajas con BigQuery?", "Sí, configuro almacenes de datos en BigQuery y Snowflake."),
    ("es_disponible", "¿Cuándo podrías empezar?", "Estoy disponible a partir del próximo mes."),
    # --- Not statements about the owner ---------------------------------------
    ("ask_project", "", "Could you tell me more about your project?"),
    ("thanks", "", "Thanks for reaching out!"),
    ("bot_identity", "Am I talking to Jordan?", "I'm Jordan's AI replica."),
    ("happy_help", "", "Happy to help."),
    ("hope_helps", "", "I hope that helps."),
    ("other_questions", "", "Let me know if you have any other questions."),
    ("greeting", "Hi!", "Hi, nice to meet you!"),
    ("rate_deflect_question", "What's your day rate?", "Could you tell me a bit about the scope of the project first?"),
    ("rust_deflect_thanks", "Do you have Rust experience?", "Thanks for the question!"),
    (
        "unknown_leave_email",
        "Do you know Kubernetes?",
        "I'd rather answer that personally, so please leave your email with a line about your project.",
    ),
    ("pt_obrigado", "", "Obrigado pela mensagem!"),
    ("es_cuentame", "", "¿Me cuentas un poco más sobre tu proyecto?"),
)

UNHELD = (
    # --- Languages and tools not in the notes ---------------------------------
    (
        "rust_production",
        "Do you have experience with Rust in production?",
        "No, I do not have experience with Rust in production.",
        "Rust",
    ),
    ("rust_bare", "Do you have experience with Rust in production?", "No.", "Rust"),
    ("terraform_never", "Have you used Terraform?", "I've never used Terraform.", "Terraform"),
    ("kubernetes_bare", "Do you know Kubernetes?", "Yes, I do.", "Kubernetes"),
    ("airflow_on_k8s", "How do you deploy Airflow?", "I run Airflow on Kubernetes.", "Kubernetes"),
    ("spark_extensive", "Have you used Spark?", "I've used Spark extensively.", "Spark"),
    ("java_no", "Do you write Java?", "I don't write Java.", "Java"),
    ("scala_some", "What about Scala?", "I have some Scala experience.", "Scala"),
    ("go_comfortable", "Can you write Go?", "I'm comfortable writing Go services.", "Go"),
    ("redshift_bare", "Have you worked with Snowflake's competitor Redshift?", "Not really.", "Redshift"),
    ("databricks_never", "Have you used Databricks?", "I've never worked with Databricks.", "Databricks"),
    ("dbt_databricks", "Which platforms do you run dbt on?", "I use dbt on Databricks.", "Databricks"),
    ("fivetran_no", "Do you use Fivetran?", "I don't use Fivetran.", "Fivetran"),
    ("airbyte_yes", "Have you worked with Airbyte?", "Yes, I've set up Airbyte for several clients.", "Airbyte"),
    ("docker_daily", "Do you know Docker?", "Yes, I use Docker every day.", "Docker"),
    ("looker_dashboards", "Which BI tool do you use?", "I build my dashboards in Looker.", "Looker"),
    ("tableau_no", "Do you know Tableau?", "No, I haven't used Tableau.", "Tableau"),
    (
        "favourite_language",
        "What's your favourite programming language?",
        "Haskell is my favourite language.",
        "favourite language",
    ),
    # --- Cloud providers and certifications -----------------------------------
    ("azure_third_person", "Has Jordan used Azure?", "Jordan has worked with Azure.", "Azure"),
    ("aws_certified", "Do you have any certifications?", "I'm an AWS Certified Data Engineer.", "AWS certification"),
    ("kafka_on_aws", "Where did you host Kafka?", "I've built Kafka pipelines on AWS.", "AWS"),
    ("gcp_certified_bare", "Are you Google Cloud certified?", "Yes.", "certification"),
    # --- Other fields of work -------------------------------------------------
    ("frontend_no", "Can you also build our web frontend?", "I don't do frontend work.", "frontend"),
    ("ml_some", "Do you do machine learning?", "I have some experience with machine learning.", "machine learning"),
    ("llm_chatbots", "Have you worked with LLMs?", "I've built a few LLM-powered chatbots.", "LLMs"),
    ("tdd_fan", "How do you test your code?", "I'm a big fan of test-driven development.", "TDD"),
    ("oncall_yes", "Would you be part of an on-call rotation?", "Yes, I can be on call.", "on-call"),
    # --- Rates, money, contract terms -----------------------------------------
    ("day_rate_flexible", "What's your day rate?", "My day rate is flexible.", "day rate"),
    ("hourly_rate", "How much do you charge per hour?", "My hourly rate is 90 euros.", "hourly rate"),
    (
        "salary_expectation",
        "What are your salary expectations?",
        "I'm looking for a salary of around 80k a year.",
        "salary",
    ),
    ("equity_open", "Would you accept equity?", "I'd consider being paid partly in equity.", "equity"),
    (
        "contract_min_length",
        "How long are your contracts usually?",
        "I prefer contracts of at least three months.",
        "contract length",
    ),
    ("contract_third_person", "", "Jordan doesn't take on projects shorter than two weeks.", "contract length"),
    ("part_time_yes", "Would you take a part-time engagement?", "Yes, I can work part-time.", "part-time"),
    (
        "full_time_open",
        "Would you consider a full-time position?",
        "I'm open to a full-time role if it's the right fit.",
        "full-time employment",
    ),
    ("nonprofit_discount", "Do you offer discounts for nonprofits?", "I offer a discount to nonprofits.", "discounts"),
    (
        "insurance_yes",
        "Do you have professional liability insurance?",
        "Yes, I carry professional liability insurance.",
        "insurance",
    ),
    ("crypto_bare", "Do you accept payment in crypto?", "No.", "payment methods"),
    ("references_available", "Can you give us references?", "I can share references from past clients.", "references"),
    # --- Legal status -----------------------------------------------------------
    ("visa_uk", "Would you need a visa to work for us in the UK?", "I don't need a visa to work in the UK.", "visa"),
    ("work_permit_eu", "Do you have the right to work in the EU?", "I have an EU work permit.", "work permit"),
    ("citizenship_bare", "Are you a US citizen?", "No, I'm not.", "citizenship"),
    # --- Schedule and availability beyond the notes -----------------------------
    ("weekends_no", "Do you work weekends?", "I don't work weekends.", "weekends"),
    (
        "weekends_sometimes",
        "Would you work on a Saturday if needed?",
        "Sometimes, if a deadline requires it.",
        "weekends",
    ),
    ("overtime_fine", "Are you okay with overtime?", "I'm fine with occasional overtime.", "overtime"),
    ("fridays_free", "When can we meet?", "I'm free on Fridays.", "weekly schedule"),
    (
        "hours_per_week",
        "How many hours a week can you give us?",
        "I'm available for about 20 hours a week.",
        "weekly hours",
    ),
    (
        "travel_monthly",
        "Would you visit our office in Munich?",
        "I travel to client offices about once a month.",
        "travel",
    ),
    # --- Management, mentoring, teaching, speaking ------------------------------
    (
        "manage_preference",
        "Do you want to manage a team again?",
        "I'm not interested in people management anymore.",
        "management preference",
    ),
    (
        "manage_over_code",
        "Do you prefer coding or managing?",
        "I prefer managing teams to writing code myself.",
        "management preference",
    ),
    ("mentoring_love", "Do you mentor junior engineers?", "I love mentoring junior engineers.", "mentoring"),
    ("teaching_course", "Do you teach?", "I teach a data engineering course at the university.", "teaching"),
    ("speaking_conferences", "Do you give talks?", "I regularly speak at data conferences.", "public speaking"),
    # --- Work-style preferences ---------------------------------------------------
    (
        "pair_programming",
        "How do you like to work with a team?",
        "I prefer pair programming over solo work.",
        "pair programming",
    ),
    ("agencies_subcontract", "Do you work with agencies?", "Yes, I often subcontract for agencies.", "agencies"),
    # --- Personal life, plans ------------------------------------------------------
    ("pet_dog", "Do you have pets?", "I have a dog named Luna.", "pets"),
    ("hobby_guitar", "What do you do in your free time?", "I play guitar in my spare time.", "hobbies"),
    ("hobby_surf_weekends", "Any hobbies?", "I go surfing most weekends.", "hobbies"),
    ("age", "How old are you?", "I'm 35 years old.", "age"),
    ("family", "Do you have a family?", "I'm married with two kids.", "family"),
    ("plan_company", "What are your plans for the future?", "I plan to start a company next year.", "plans"),
    ("plan_book", "Any side projects planned?", "I'm planning to write a book about data engineering.", "plans"),
    # --- Portuguese and Spanish ------------------------------------------------------
    ("pt_kubernetes_never", "Já trabalhaste com Kubernetes?", "Não, nunca trabalhei com Kubernetes.", "Kubernetes"),
    ("pt_day_rate", "Qual é o teu preço por dia?", "O meu preço por dia é 600 euros.", "day rate"),
    ("pt_bare_spark", "Usas Spark?", "Sim.", "Spark"),
    ("es_spark", "¿Tienes experiencia con Spark?", "Sí, tengo experiencia con Spark.", "Spark"),
    ("es_weekends", "¿Trabajas los fines de semana?", "No trabajo los fines de semana.", "weekends"),
    ("es_mentoring", "¿Te gusta ser mentor?", "Me encanta ser mentor de ingenieros junior.", "mentoring"),
)
