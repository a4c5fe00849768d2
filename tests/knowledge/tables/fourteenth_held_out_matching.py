"""Held-out table for issue 55 ("Did you mean…?"), the fourteenth: written by a helper who never saw the matcher or the other tables; not to be tuned to."""

STARTUPS = "Do you work with early-stage startups?"
NDA = "Do you sign NDAs?"
TIME_ZONE = "What time zone are you in?"
WORK = "What kind of work do you do?"
CURRENT = "What are you working on at the moment?"
AVAILABLE = "Are you available for new projects?"
CONTACT = "How can I get in touch with you?"
RELOCATION = "Are you open to relocation?"

ENTRIES = (STARTUPS, NDA, TIME_ZONE, WORK, CURRENT, AVAILABLE, CONTACT, RELOCATION)

ROWS = (
    # (message, ENTRY constant or None for a near miss, language code, kind)
    # ---------------------------------------------------------------- English
    # STARTUPS
    ("Are you open to working with seed-stage companies?", STARTUPS, "en", "other_words"),
    ("Founder here. Is working with scrappy early-stage teams something you do?", STARTUPS, "en", "other_words"),
    (
        "Do early stage startups fit your client profile, or do you mostly stick to bigger companies?",
        STARTUPS,
        "en",
        "other_words",
    ),
    ("do u work w early stage startups", STARTUPS, "en", "slips"),
    ("yo do you take on startup clients at like the very early stage", STARTUPS, "en", "slips"),
    (
        "We're a 5-person pre-seed fintech in Dublin, about to hire our first data person. "
        "Do you work with startups this early?",
        STARTUPS,
        "en",
        "added",
    ),
    (
        "Do you work with early-stage startups? We just closed a $1.2M seed round and our "
        "stack is Postgres plus a bunch of spreadsheets.",
        STARTUPS,
        "en",
        "added",
    ),
    (
        "Do you work with very early startups, like ones with only a couple of engineers and no data team yet?",
        STARTUPS,
        "en",
        "added",
    ),
    (
        "Hi there! I'm Priya, co-founder of a small healthtech startup in Austin. We've got a product, "
        "some users, and zero data infrastructure. Before I book anything: do you work with "
        "early-stage companies like ours? Thanks!",
        STARTUPS,
        "en",
        "inside",
    ),
    (
        "Hey, Tom from Lumen Analytics here (we're 8 people, seed-funded). Quick one: do you take on "
        "early-stage startups as clients, or is that not your thing? Cheers",
        STARTUPS,
        "en",
        "inside",
    ),
    (
        "Good evening, I'm an angel investor and one of my portfolio companies (pre-Series A, "
        "about 10 staff) needs help with its data. Do you take on clients that young? Regards, Helen",
        STARTUPS,
        "en",
        "inside",
    ),
    ("Do you invest in early-stage startups?", None, "en", "near_miss"),
    ("Have you ever founded a startup of your own?", None, "en", "near_miss"),
    ("Do you work with large enterprises like banks and telcos?", None, "en", "near_miss"),
    ("Would you join our early-stage startup as a full-time CTO with equity?", None, "en", "near_miss"),
    ("Do you take equity instead of cash when you work with startups?", None, "en", "near_miss"),
    ("Can you recommend an accelerator for an early-stage startup in Lisbon?", None, "en", "near_miss"),
    # NDA
    ("Are you willing to sign a non-disclosure agreement?", NDA, "en", "other_words"),
    (
        "Would you be comfortable signing a confidentiality agreement before we go into specifics?",
        NDA,
        "en",
        "other_words",
    ),
    ("Will you put your name on an NDA if our lawyers ask for one?", NDA, "en", "other_words"),
    ("do you sign ndas", NDA, "en", "slips"),
    ("u ok to sign an nda b4 we talk?", NDA, "en", "slips"),
    ("Do you sing NDAs?", NDA, "en", "slips"),
    ("Do you sign NDAs? Ours is a standard two-page mutual one from our legal team.", NDA, "en", "added"),
    (
        "We're a payments company, so we'd need you to sign an NDA before we show you any "
        "transaction data. Is that something you do?",
        NDA,
        "en",
        "added",
    ),
    ("Will you sign an NDA before we share our Snowflake schema and some sample customer tables?", NDA, "en", "added"),
    (
        "Hello, I'm Marcus, head of data at a mid-sized insurer in Hartford. We're considering bringing "
        "in a freelancer for a pipeline audit, but compliance insists on confidentiality paperwork "
        "first. Do you sign NDAs? Best regards, Marcus",
        NDA,
        "en",
        "inside",
    ),
    (
        "Hi! Recruiter with Northbeam Talent here. One of my clients is interested in your profile but "
        "they're very protective of their data. Would you sign a confidentiality agreement up front? "
        "Thanks in advance.",
        NDA,
        "en",
        "inside",
    ),
    ("Will I have to sign an NDA with you before we talk?", None, "en", "near_miss"),
    ("Do you have an NDA template you could send me?", None, "en", "near_miss"),
    ("Do you sign non-compete agreements?", None, "en", "near_miss"),
    ("Can you tell me which companies you've worked with under NDA?", None, "en", "near_miss"),
    ("Do you ever refuse to sign NDAs?", None, "en", "near_miss"),
    ("Does your subcontractor sign NDAs too?", None, "en", "near_miss"),
    # TIME_ZONE
    ("Where are you located, time zone-wise?", TIME_ZONE, "en", "other_words"),
    ("Are you on GMT, CET or something else?", TIME_ZONE, "en", "other_words"),
    ("Which time zone are you based in?", TIME_ZONE, "en", "other_words"),
    ("what timezone r u in", TIME_ZONE, "en", "slips"),
    ("whats ur tz", TIME_ZONE, "en", "slips"),
    ("What time zone are yuo in?", TIME_ZONE, "en", "slips"),
    (
        "What time zone are you in? Our whole team is in New York, so we'd want some overlap in the mornings.",
        TIME_ZONE,
        "en",
        "added",
    ),
    ("What time zone do you work from? We're a 40-person logistics company in Boston.", TIME_ZONE, "en", "added"),
    ("Which time zone are you in? We do daily standups at 9am Eastern, just checking.", TIME_ZONE, "en", "added"),
    (
        "Hi! I'm Dana, I run ops at a small e-commerce brand in Toronto. Your profile looks like a great "
        "fit for a dbt project we have. Before we go further, what time zone are you based in? Thanks!",
        TIME_ZONE,
        "en",
        "inside",
    ),
    (
        "Good morning (or afternoon, I can't tell!). Sam from Fieldwork Agency. We coordinate freelancers "
        "across a few continents and need to plan meetings, so which time zone do you keep? Cheers, Sam",
        TIME_ZONE,
        "en",
        "inside",
    ),
    ("What time is it in Lisbon right now?", None, "en", "near_miss"),
    ("What's the time difference between Lisbon and Singapore?", None, "en", "near_miss"),
    ("Which time zone should we store our warehouse timestamps in, UTC or local?", None, "en", "near_miss"),
    ("What are your working hours on Fridays?", None, "en", "near_miss"),
    ("Can you overlap with Sydney business hours?", None, "en", "near_miss"),
    ("What time zone was your previous client in?", None, "en", "near_miss"),
    # WORK
    ("What services do you offer?", WORK, "en", "other_words"),
    ("What's your area of expertise?", WORK, "en", "other_words"),
    ("So what exactly does a freelance data engineer like you do for clients?", WORK, "en", "other_words"),
    ("In a nutshell, what do you do?", WORK, "en", "other_words"),
    ("what kinda work do u do", WORK, "en", "slips"),
    ("what kind of wrok do you do", WORK, "en", "slips"),
    (
        "What sort of projects do you take on? We're a 60-person SaaS company with a messy Postgres and Looker setup.",
        WORK,
        "en",
        "added",
    ),
    ("What kind of work do you do: is it mostly pipelines, dashboards, or warehouse stuff?", WORK, "en", "added"),
    ("What do you specialise in? We're a mid-sized retailer thinking about moving to BigQuery.", WORK, "en", "added"),
    (
        "Hi, I'm Jonas, product manager at a Series B marketplace in Amsterdam. I found your site through "
        "a colleague and I'm trying to understand your offering. What kind of work do you typically do? "
        "Thanks, Jonas",
        WORK,
        "en",
        "inside",
    ),
    (
        "Hello! I work at a recruitment agency (Bright Path) and I'm putting together a shortlist for a "
        "client. Could you give me a quick overview of the kind of work you do? Kind regards, Leila",
        WORK,
        "en",
        "inside",
    ),
    ("What kind of work does your team do?", None, "en", "near_miss"),
    ("What kind of work did you do before going freelance?", None, "en", "near_miss"),
    ("What's your day rate for pipeline work?", None, "en", "near_miss"),
    ("What kind of work should I hire a data engineer for versus a data analyst?", None, "en", "near_miss"),
    ("What kind of laptop do you work on?", None, "en", "near_miss"),
    (
        "What kind of work would you recommend for someone just starting out in data engineering?",
        None,
        "en",
        "near_miss",
    ),
    # CURRENT
    ("What projects are you busy with these days?", CURRENT, "en", "other_words"),
    ("What's on your plate right now?", CURRENT, "en", "other_words"),
    ("Anything interesting you're working on lately?", CURRENT, "en", "other_words"),
    ("Tell me about your current projects?", CURRENT, "en", "other_words"),
    ("wat r u working on rn", CURRENT, "en", "slips"),
    ("what are you workin on at the momnet", CURRENT, "en", "slips"),
    (
        "What are you working on at the moment? I'm especially curious whether any of it is in "
        "logistics, since that's our sector.",
        CURRENT,
        "en",
        "added",
    ),
    ("What kind of projects are you working on now, any fintech clients?", CURRENT, "en", "added"),
    (
        "What are you working on these days? Any pipeline speed-up work like the one we need for our nightly reports?",
        CURRENT,
        "en",
        "added",
    ),
    (
        "Hi! I'm Grace, I write a newsletter about the data tooling scene in London and I like to feature "
        "freelancers. What are you working on at the moment? Would love a short description. Thanks!",
        CURRENT,
        "en",
        "inside",
    ),
    (
        "Hey there, I'm a founder (retail analytics, 12 people) and before reaching out properly I wanted "
        "to get a feel for you. What's currently keeping you busy? Cheers, Omar",
        CURRENT,
        "en",
        "inside",
    ),
    ("What were you working on last year?", None, "en", "near_miss"),
    ("What will you be working on after your current contract ends?", None, "en", "near_miss"),
    ("How did you get the nightly reports from 6 hours down to 25 minutes?", None, "en", "near_miss"),
    ("What is your team working on at the moment?", None, "en", "near_miss"),
    ("Can I see the code from project TIDE-22?", None, "en", "near_miss"),
    ("Who are your current clients, by name, and can I call them for references?", None, "en", "near_miss"),
    # AVAILABLE
    ("Are you taking on new clients?", AVAILABLE, "en", "other_words"),
    ("Do you have capacity for a new engagement?", AVAILABLE, "en", "other_words"),
    ("Are you open for new contracts right now?", AVAILABLE, "en", "other_words"),
    ("Any chance you're looking for new gigs?", AVAILABLE, "en", "other_words"),
    ("r u available for new projects", AVAILABLE, "en", "slips"),
    ("are you avalable for new work?", AVAILABLE, "en", "slips"),
    (
        "Are you available for a new project? It's about 3 months of Airflow work, fully remote.",
        AVAILABLE,
        "en",
        "added",
    ),
    (
        "Are you available for new projects? We're based in Lisbon and would love someone on-site a couple of days a week.",
        AVAILABLE,
        "en",
        "added",
    ),
    (
        "Would you have availability for a new data warehouse build for a 30-person company later this year?",
        AVAILABLE,
        "en",
        "added",
    ),
    (
        "Hello, my name is Aisha and I'm a technical recruiter at Stackhire. I have a client in Manchester "
        "looking for a freelance data engineer for a 6-month remote contract (roughly 550 GBP/day). Are you "
        "currently available for new projects? Thanks, Aisha",
        AVAILABLE,
        "en",
        "inside",
    ),
    (
        "Hi! We met briefly at PyData Porto last year. My company is finally ready to modernise our "
        "reporting stack. Are you free to take on something new? Best, Rui",
        AVAILABLE,
        "en",
        "inside",
    ),
    ("Can you start on Monday?", None, "en", "near_miss"),
    ("Are you free tomorrow at 3pm for a quick call?", None, "en", "near_miss"),
    ("Are you available for a full-time permanent position?", None, "en", "near_miss"),
    ("Are you too busy to take on anything new right now?", None, "en", "near_miss"),
    ("Is your colleague available for a new project?", None, "en", "near_miss"),
    ("Were you available for freelance work last summer?", None, "en", "near_miss"),
    # CONTACT
    ("What's the best way to reach you?", CONTACT, "en", "other_words"),
    ("How do I contact you?", CONTACT, "en", "other_words"),
    ("How can I get hold of you to discuss a project?", CONTACT, "en", "other_words"),
    ("Where can I drop you a message?", CONTACT, "en", "other_words"),
    ("how do i reach u", CONTACT, "en", "slips"),
    ("how can i get in tuch with you", CONTACT, "en", "slips"),
    (
        "How can I get in touch? We're a mid-sized fintech with a Kafka project we'd like to discuss.",
        CONTACT,
        "en",
        "added",
    ),
    ("What's the best way to contact you about a 2-month dbt migration?", CONTACT, "en", "added"),
    ("How do I reach you to set up a call? We're in Chicago, flexible on times.", CONTACT, "en", "added"),
    (
        "Hi, I'm Elena from Quarry Labs, a 25-person analytics startup in Denver. We're looking for help "
        "fixing our very slow dbt runs. I'd love to talk, so how can I get in touch with you directly? "
        "Thanks, Elena",
        CONTACT,
        "en",
        "inside",
    ),
    (
        "Good afternoon. I lead the data team at a regional retailer and your case study caught my "
        "attention. What's the best way to get in contact with you? Kind regards, Paul Whitfield",
        CONTACT,
        "en",
        "inside",
    ),
    ("How can I get in touch with your previous clients for a reference?", None, "en", "near_miss"),
    ("How do I get in touch with your accountant about an invoice?", None, "en", "near_miss"),
    ("How can I get in touch with a good data engineer in Berlin if you're booked up?", None, "en", "near_miss"),
    ("How can I unsubscribe from your newsletter?", None, "en", "near_miss"),
    ("Did you get the email I sent you last Tuesday?", None, "en", "near_miss"),
    ("How quickly do you usually reply to messages?", None, "en", "near_miss"),
    # RELOCATION
    ("Are you willing to relocate?", RELOCATION, "en", "other_words"),
    ("Would you consider moving abroad for the right position?", RELOCATION, "en", "other_words"),
    ("Would you be open to moving to another city for a contract?", RELOCATION, "en", "other_words"),
    ("Any appetite for moving countries for work?", RELOCATION, "en", "other_words"),
    ("r u open to relocating", RELOCATION, "en", "slips"),
    ("would you relocat for a job", RELOCATION, "en", "slips"),
    ("Would you relocate to London for a 12-month contract if we covered moving costs?", RELOCATION, "en", "added"),
    ("Are you open to relocation to Munich? The role is hybrid, 3 days in the office.", RELOCATION, "en", "added"),
    ("Would you consider relocating to the US? We can sponsor a visa.", RELOCATION, "en", "added"),
    (
        "Hi, I'm Chloe, a talent partner at a Series C fintech in Amsterdam. We have a senior data "
        "engineering role that requires being in the office, and we offer a relocation package. "
        "Would you be open to relocating? Best, Chloe",
        RELOCATION,
        "en",
        "inside",
    ),
    (
        "Hello! Recruiter here (Harbor & Co). My client is a logistics company in Dubai and they'd want "
        "the person on site full time. Before I pitch it, are you open to moving there? Thanks!",
        RELOCATION,
        "en",
        "inside",
    ),
    ("Did you relocate to Lisbon from somewhere else?", None, "en", "near_miss"),
    ("Can you help us relocate our data warehouse to a different cloud region?", None, "en", "near_miss"),
    ("Do you know a good relocation agency in Lisbon?", None, "en", "near_miss"),
    ("Would you travel to Madrid for a two-day workshop?", None, "en", "near_miss"),
    ("Do I need a visa to work with a freelancer based in Portugal?", None, "en", "near_miss"),
    ("Should our startup relocate to Lisbon for the tax benefits?", None, "en", "near_miss"),
    # ---------------------------------------------------------------- Spanish
    # STARTUPS
    ("¿Colaboras con startups que están empezando?", STARTUPS, "es", "other_words"),
    ("trabajas con startups en fase inicial", STARTUPS, "es", "slips"),
    (
        "Somos una startup de 4 personas en Valencia, recién salida de una ronda pre-semilla. "
        "¿Trabajas con empresas tan pequeñas y tan al principio?",
        STARTUPS,
        "es",
        "added",
    ),
    ("¿Aceptas proyectos con startups muy jóvenes, de las que aún no tienen equipo de datos?", STARTUPS, "es", "added"),
    (
        "Hola, soy Lucía, cofundadora de una fintech en Madrid. Todavía no tenemos a nadie de datos y "
        "estamos pensando en contratar ayuda externa. ¿Sueles trabajar con startups en etapa temprana? ¡Gracias!",
        STARTUPS,
        "es",
        "inside",
    ),
    ("¿Inviertes en startups en fase inicial?", None, "es", "near_miss"),
    ("¿Has fundado alguna startup tú mismo?", None, "es", "near_miss"),
    # NDA
    ("¿Estás dispuesto a firmar un acuerdo de confidencialidad?", NDA, "es", "other_words"),
    ("¿Firmas contratos de confidencialidad antes de ver datos sensibles?", NDA, "es", "other_words"),
    ("firmas nda?", NDA, "es", "slips"),
    (
        "¿Firmarías un NDA mutuo antes de que te enseñemos nuestros datos de clientes? Lo redacta nuestro departamento legal.",
        NDA,
        "es",
        "added",
    ),
    (
        "Buenas tardes. Soy Javier, responsable de datos en una aseguradora de Sevilla. Antes de contarte "
        "el proyecto, nuestro equipo de cumplimiento exige confidencialidad. ¿Firmas acuerdos de "
        "confidencialidad? Un saludo.",
        NDA,
        "es",
        "inside",
    ),
    ("¿Tengo que firmar yo algún acuerdo de confidencialidad contigo?", None, "es", "near_miss"),
    ("¿Firmas cláusulas de no competencia?", None, "es", "near_miss"),
    # TIME_ZONE
    ("¿Desde qué huso horario trabajas?", TIME_ZONE, "es", "other_words"),
    ("en q zona horaria estas", TIME_ZONE, "es", "slips"),
    (
        "¿En qué zona horaria estás? Nuestro equipo está en Nueva York y hacemos las reuniones por la mañana.",
        TIME_ZONE,
        "es",
        "added",
    ),
    (
        "Hola, soy Andrés y dirijo una pequeña agencia en Miami. Nos interesa tu perfil para un proyecto "
        "con dbt. Antes de nada, ¿en qué zona horaria trabajas? Gracias.",
        TIME_ZONE,
        "es",
        "inside",
    ),
    ("¿Qué hora es ahora mismo en Lisboa?", None, "es", "near_miss"),
    ("¿Qué diferencia horaria hay entre Madrid y Ciudad de México?", None, "es", "near_miss"),
    ("¿Qué zona horaria deberíamos usar para las fechas de nuestro data warehouse?", None, "es", "near_miss"),
    # WORK
    ("¿A qué te dedicas exactamente?", WORK, "es", "other_words"),
    ("¿Cuál es tu especialidad?", WORK, "es", "other_words"),
    ("q tipo de trabajo haces", WORK, "es", "slips"),
    (
        "¿Qué servicios ofreces? Somos una empresa mediana de logística con un Postgres que ya no da más de sí.",
        WORK,
        "es",
        "added",
    ),
    (
        "Hola, me llamo Carmen y trabajo en selección de personal tecnológico en Barcelona. Estoy "
        "preparando una lista de candidatos para un cliente. ¿Me podrías contar qué tipo de trabajo haces? "
        "Muchas gracias.",
        WORK,
        "es",
        "inside",
    ),
    ("¿A qué te dedicabas antes de ser freelance?", None, "es", "near_miss"),
    ("¿Cuánto cobras por día de trabajo?", None, "es", "near_miss"),
    # CURRENT
    ("¿Qué proyectos tienes entre manos ahora mismo?", CURRENT, "es", "other_words"),
    ("en q andas trabajando ahora", CURRENT, "es", "slips"),
    (
        "¿En qué estás trabajando ahora? Me interesa sobre todo si tienes algo de fintech, que es nuestro sector.",
        CURRENT,
        "es",
        "added",
    ),
    (
        "Hola, soy Pablo, escribo un boletín sobre datos en español y me gusta presentar a freelancers. "
        "¿En qué estás trabajando actualmente? ¡Un saludo!",
        CURRENT,
        "es",
        "inside",
    ),
    ("¿En qué trabajaste el año pasado?", None, "es", "near_miss"),
    ("¿Cómo conseguiste bajar los informes de 6 horas a 25 minutos?", None, "es", "near_miss"),
    ("¿En qué está trabajando tu equipo ahora?", None, "es", "near_miss"),
    # AVAILABLE
    ("¿Aceptas nuevos clientes?", AVAILABLE, "es", "other_words"),
    ("¿Tienes hueco para un proyecto nuevo?", AVAILABLE, "es", "other_words"),
    ("estas disponible para proyectos nuevos", AVAILABLE, "es", "slips"),
    (
        "¿Estás disponible para un proyecto nuevo de unos 3 meses con Airflow? Sería en remoto.",
        AVAILABLE,
        "es",
        "added",
    ),
    (
        "Hola, soy Marta, reclutadora en TalentoTech. Tengo un cliente en Madrid que busca un ingeniero de "
        "datos freelance para un contrato de 6 meses en remoto. ¿Tienes disponibilidad para nuevos "
        "proyectos? Gracias.",
        AVAILABLE,
        "es",
        "inside",
    ),
    ("¿Puedes empezar el lunes?", None, "es", "near_miss"),
    ("¿Estás libre mañana a las 4 para una llamada?", None, "es", "near_miss"),
    # CONTACT
    ("¿Cuál es la mejor forma de contactarte?", CONTACT, "es", "other_words"),
    ("como te contacto", CONTACT, "es", "slips"),
    ("¿Cómo puedo hablar contigo sobre una migración a BigQuery de unos dos meses?", CONTACT, "es", "added"),
    (
        "Buenos días, soy Raúl, CTO de una startup de retail en Bilbao. Tenemos problemas serios con "
        "nuestros pipelines y nos gustaría hablar contigo. ¿Cómo puedo ponerme en contacto contigo? Saludos.",
        CONTACT,
        "es",
        "inside",
    ),
    ("¿Cómo puedo contactar con tus clientes anteriores para pedir referencias?", None, "es", "near_miss"),
    ("¿Cómo me pongo en contacto con tu contable por una factura?", None, "es", "near_miss"),
    ("¿Cuánto tardas normalmente en responder?", None, "es", "near_miss"),
    # RELOCATION
    ("¿Te mudarías a otro país por un proyecto?", RELOCATION, "es", "other_words"),
    ("te mudarias a madrid?", RELOCATION, "es", "slips"),
    (
        "¿Estarías dispuesto a trasladarte a Barcelona para un contrato de un año? Cubrimos los gastos de mudanza.",
        RELOCATION,
        "es",
        "added",
    ),
    (
        "Hola, soy Irene, de recursos humanos en una empresa de pagos en Ámsterdam. Tenemos un puesto "
        "presencial y ofrecemos paquete de reubicación. ¿Te plantearías mudarte? Un saludo.",
        RELOCATION,
        "es",
        "inside",
    ),
    ("¿Te mudaste a Lisboa desde otra ciudad?", None, "es", "near_miss"),
    ("¿Viajarías a Madrid para un taller de dos días?", None, "es", "near_miss"),
    ("¿Necesito un visado para trabajar con un freelance en Portugal?", None, "es", "near_miss"),
    # ------------------------------------------------------------- Portuguese
    # STARTUPS
    ("Colaboras com startups que ainda estão no início?", STARTUPS, "pt", "other_words"),
    ("vc trabalha com startups em fase inicial?", STARTUPS, "pt", "slips"),
    (
        "Somos uma startup de 5 pessoas no Porto, acabámos de fechar uma ronda pre-seed. Trabalhas com empresas nesta fase?",
        STARTUPS,
        "pt",
        "added",
    ),
    ("Aceitas projetos com startups bem pequenas, ainda sem equipa de dados?", STARTUPS, "pt", "added"),
    (
        "Olá! Sou a Beatriz, cofundadora de uma healthtech em São Paulo. Ainda não temos ninguém de dados "
        "e queremos montar tudo do zero. Você costuma trabalhar com startups em estágio inicial? Obrigada!",
        STARTUPS,
        "pt",
        "inside",
    ),
    ("Investes em startups em fase inicial?", None, "pt", "near_miss"),
    ("Trabalhas com grandes bancos e seguradoras?", None, "pt", "near_miss"),
    # NDA
    ("Estás disposto a assinar um acordo de confidencialidade?", NDA, "pt", "other_words"),
    ("Você assina termo de confidencialidade antes de ver os dados?", NDA, "pt", "other_words"),
    ("assina nda?", NDA, "pt", "slips"),
    (
        "Assinarias um NDA mútuo antes de partilharmos dados de clientes? O documento é preparado pelo nosso jurídico.",
        NDA,
        "pt",
        "added",
    ),
    (
        "Boa tarde, sou o Ricardo, responsável de dados numa seguradora em Lisboa. Antes de te explicar o "
        "projeto, o compliance exige confidencialidade. Assinas acordos de confidencialidade? Cumprimentos.",
        NDA,
        "pt",
        "inside",
    ),
    ("Eu vou ter de assinar algum NDA contigo?", None, "pt", "near_miss"),
    ("Tens um modelo de NDA que me possas enviar?", None, "pt", "near_miss"),
    # TIME_ZONE
    ("Qual é o teu fuso horário?", TIME_ZONE, "pt", "other_words"),
    ("em q fuso vc ta", TIME_ZONE, "pt", "slips"),
    (
        "Em que fuso horário estás? A nossa equipa está em Nova Iorque e fazemos as reuniões de manhã.",
        TIME_ZONE,
        "pt",
        "added",
    ),
    (
        "Olá, sou o Thiago e trabalho numa agência em Boston. Gostámos do teu perfil para um projeto com "
        "dbt. Antes de mais, em que fuso horário trabalhas? Abraço",
        TIME_ZONE,
        "pt",
        "inside",
    ),
    ("Que horas são agora em Lisboa?", None, "pt", "near_miss"),
    ("Qual é a diferença horária entre Lisboa e São Paulo?", None, "pt", "near_miss"),
    ("Que fuso horário devemos usar nos timestamps do nosso data warehouse?", None, "pt", "near_miss"),
    # WORK
    ("Quais serviços você oferece?", WORK, "pt", "other_words"),
    ("Qual é a tua especialidade?", WORK, "pt", "other_words"),
    ("q tipo de trabalho vc faz", WORK, "pt", "slips"),
    (
        "Que tipo de trabalho fazes? Somos uma empresa média de retalho a pensar migrar para o Snowflake.",
        WORK,
        "pt",
        "added",
    ),
    (
        "Olá, chamo-me Inês e trabalho em recrutamento tecnológico. Estou a preparar uma lista de "
        "candidatos para um cliente. Podes explicar-me resumidamente o que fazes? Obrigada.",
        WORK,
        "pt",
        "inside",
    ),
    ("O que fazias antes de seres freelancer?", None, "pt", "near_miss"),
    ("Quanto cobras por dia?", None, "pt", "near_miss"),
    # CURRENT
    ("Em que projetos andas metido agora?", CURRENT, "pt", "other_words"),
    ("no q vc ta trabalhando agora", CURRENT, "pt", "slips"),
    (
        "Em que estás a trabalhar neste momento? Interessa-me sobretudo se tens algo em logística, que é o nosso setor.",
        CURRENT,
        "pt",
        "added",
    ),
    (
        "Oi! Sou a Camila, escrevo uma newsletter sobre dados e gosto de apresentar freelancers. Em que "
        "você está trabalhando atualmente? Abraços!",
        CURRENT,
        "pt",
        "inside",
    ),
    ("Em que estiveste a trabalhar no ano passado?", None, "pt", "near_miss"),
    ("Posso ver o código do projeto TIDE-22?", None, "pt", "near_miss"),
    ("Em que é que a tua equipa está a trabalhar agora?", None, "pt", "near_miss"),
    # AVAILABLE
    ("Estás a aceitar novos clientes?", AVAILABLE, "pt", "other_words"),
    ("Tens espaço na agenda para um projeto novo?", AVAILABLE, "pt", "other_words"),
    ("vc ta disponivel pra projetos novos", AVAILABLE, "pt", "slips"),
    ("Estás disponível para um projeto novo de 3 meses com Airflow, em remoto?", AVAILABLE, "pt", "added"),
    (
        "Olá, sou a Joana, recrutadora na TechPonte. Tenho um cliente em Lisboa à procura de um engenheiro "
        "de dados freelance para 6 meses, parte presencial. Tens disponibilidade para novos projetos? Obrigada.",
        AVAILABLE,
        "pt",
        "inside",
    ),
    ("Consegues começar segunda-feira?", None, "pt", "near_miss"),
    ("Estás livre amanhã às 15h para uma chamada?", None, "pt", "near_miss"),
    # CONTACT
    ("Qual a melhor forma de falar contigo?", CONTACT, "pt", "other_words"),
    ("como falo com vc", CONTACT, "pt", "slips"),
    ("Como posso falar contigo sobre uma migração para o BigQuery de uns dois meses?", CONTACT, "pt", "added"),
    (
        "Bom dia, sou o Miguel, CTO de uma startup de logística em Braga. Os nossos pipelines estão sempre "
        "a falhar e queríamos falar contigo. Como posso entrar em contacto? Cumprimentos.",
        CONTACT,
        "pt",
        "inside",
    ),
    ("Como posso contactar os teus antigos clientes para pedir referências?", None, "pt", "near_miss"),
    ("Como cancelo a subscrição da tua newsletter?", None, "pt", "near_miss"),
    ("Recebeste o email que te mandei na semana passada?", None, "pt", "near_miss"),
    # RELOCATION
    ("Mudarias de país por um projeto?", RELOCATION, "pt", "other_words"),
    ("vc toparia se mudar pra sp?", RELOCATION, "pt", "slips"),
    (
        "Estarias disposto a mudar-te para Berlim por um contrato de um ano? Pagamos a mudança.",
        RELOCATION,
        "pt",
        "added",
    ),
    (
        "Olá, sou a Sofia, de recursos humanos numa fintech em Londres. Temos uma vaga presencial e "
        "oferecemos pacote de relocalização. Estarias aberto a mudar de país? Cumprimentos.",
        RELOCATION,
        "pt",
        "inside",
    ),
    ("Mudaste-te para Lisboa vindo de outra cidade?", None, "pt", "near_miss"),
    ("Podes ajudar-nos a mudar o nosso data warehouse para outra região da cloud?", None, "pt", "near_miss"),
    ("Preciso de visto para contratar um freelancer em Portugal?", None, "pt", "near_miss"),
    # ----------------------------------------------------------------- French
    ("Travaillez-vous avec des startups en phase d'amorçage ?", STARTUPS, "fr", "other_words"),
    (
        "Nous sommes une jeune startup de 6 personnes à Lyon, sans équipe data. Vous travaillez avec des boîtes à ce stade ?",
        STARTUPS,
        "fr",
        "added",
    ),
    ("Investissez-vous dans des startups en phase d'amorçage ?", None, "fr", "near_miss"),
    ("vous signez des NDA ?", NDA, "fr", "slips"),
    (
        "Bonjour, je suis Claire, DPO dans une mutuelle à Nantes. Avant de vous présenter le projet, nous "
        "devons faire signer un accord de confidentialité. Est-ce que vous acceptez d'en signer un ? Cordialement.",
        NDA,
        "fr",
        "inside",
    ),
    ("Est-ce que je devrai signer un accord de confidentialité de mon côté ?", None, "fr", "near_miss"),
    ("Vous êtes sur quel fuseau horaire ?", TIME_ZONE, "fr", "other_words"),
    ("c quoi ton fuseau horaire", TIME_ZONE, "fr", "slips"),
    ("Quel est le décalage horaire entre Paris et Montréal ?", None, "fr", "near_miss"),
    ("Quel genre de missions faites-vous ?", WORK, "fr", "other_words"),
    ("qu'est ce que tu fais comme boulot exactement", WORK, "fr", "slips"),
    ("Quel est votre TJM pour une mission data ?", None, "fr", "near_miss"),
    (
        "Sur quoi travaillez-vous en ce moment ? Je me demande si vous avez des clients dans la logistique.",
        CURRENT,
        "fr",
        "added",
    ),
    ("Sur quoi travailliez-vous l'année dernière ?", None, "fr", "near_miss"),
    ("Êtes-vous dispo pour de nouvelles missions ?", AVAILABLE, "fr", "other_words"),
    (
        "Bonjour, je suis recruteur chez DataTalents. J'ai une mission de 4 mois en full remote sur Airflow "
        "et dbt. Êtes-vous disponible pour de nouveaux projets ? Merci !",
        AVAILABLE,
        "fr",
        "inside",
    ),
    ("Pouvez-vous commencer lundi ?", None, "fr", "near_miss"),
    ("comment je peux vous contacter", CONTACT, "fr", "slips"),
    ("Comment vous joindre pour parler d'un projet de migration vers Snowflake ?", CONTACT, "fr", "added"),
    ("Comment contacter vos anciens clients pour avoir des références ?", None, "fr", "near_miss"),
    ("Seriez-vous prêt à déménager à Paris pour un CDI ?", RELOCATION, "fr", "added"),
    ("Avez-vous déménagé à Lisbonne récemment ?", None, "fr", "near_miss"),
    # ----------------------------------------------------------------- German
    ("Arbeiten Sie auch mit Startups in der Frühphase?", STARTUPS, "de", "other_words"),
    (
        "Hallo, ich bin Jonas, Mitgründer eines Seed-finanzierten Startups in Berlin (7 Leute, noch kein "
        "Data-Team). Arbeiten Sie mit so frühen Startups zusammen? Viele Grüße",
        STARTUPS,
        "de",
        "inside",
    ),
    ("Investieren Sie in junge Startups?", None, "de", "near_miss"),
    ("Unterschreiben Sie eine Geheimhaltungsvereinbarung?", NDA, "de", "other_words"),
    ("unterschreibst du ndas", NDA, "de", "slips"),
    ("Muss ich bei Ihnen auch eine NDA unterschreiben?", None, "de", "near_miss"),
    ("In welcher Zeitzone arbeiten Sie? Unser Team sitzt in New York.", TIME_ZONE, "de", "added"),
    ("welche zeitzone bist du", TIME_ZONE, "de", "slips"),
    ("Wie groß ist der Zeitunterschied zwischen Berlin und Tokio?", None, "de", "near_miss"),
    ("Was genau machen Sie beruflich?", WORK, "de", "other_words"),
    (
        "Welche Art von Projekten übernehmen Sie? Wir sind ein mittelständischer Händler mit einem sehr langsamen Data Warehouse.",
        WORK,
        "de",
        "added",
    ),
    ("Was kostet ein Tag bei Ihnen?", None, "de", "near_miss"),
    ("Woran arbeitest du gerade?", CURRENT, "de", "other_words"),
    ("Woran haben Sie letztes Jahr gearbeitet?", None, "de", "near_miss"),
    ("Haben Sie Kapazitäten für neue Projekte?", AVAILABLE, "de", "other_words"),
    (
        "Guten Tag, ich bin Recruiterin bei DataWerk in München. Mein Kunde sucht einen freiberuflichen "
        "Data Engineer für 6 Monate remote. Sind Sie derzeit für neue Projekte verfügbar? Beste Grüße, Anna",
        AVAILABLE,
        "de",
        "inside",
    ),
    ("Können Sie schon am Montag anfangen?", None, "de", "near_miss"),
    ("wie kann ich dich erreichen", CONTACT, "de", "slips"),
    ("Wie kann ich Sie am besten kontaktieren, um ein Kafka-Projekt zu besprechen?", CONTACT, "de", "added"),
    ("Wie erreiche ich Ihren Steuerberater wegen einer Rechnung?", None, "de", "near_miss"),
    ("Wären Sie bereit, für ein Projekt nach Hamburg umzuziehen?", RELOCATION, "de", "added"),
    (
        "Hallo! Ich bin Lena von einer Fintech in Zürich. Wir bieten ein Relocation-Paket für eine Stelle "
        "vor Ort. Wären Sie offen für einen Umzug? Grüße",
        RELOCATION,
        "de",
        "inside",
    ),
    ("Können Sie uns helfen, unser Data Warehouse in eine andere Cloud-Region umzuziehen?", None, "de", "near_miss"),
)
