"""Held-out table for issue 55 ("Did you mean…?"), the fifteenth: written by a helper who never saw the matcher or the other tables; not to be tuned to."""

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
    # ------------------------------------------------------------------
    # English
    # ------------------------------------------------------------------
    # STARTUPS
    ("Are you comfortable working with very young companies, like pre-seed or seed?", STARTUPS, "en", "other_words"),
    ("Do you take on really small startups, the kind with no data team yet?", STARTUPS, "en", "other_words"),
    ("Do you do gigs for startups that are just getting off the ground?", STARTUPS, "en", "other_words"),
    ("Would an early-stage company be a good fit for you as a client?", STARTUPS, "en", "other_words"),
    ("do u work w early stage startups", STARTUPS, "en", "slips"),
    ("Do you work with earlystage start ups", STARTUPS, "en", "slips"),
    ("you work with seed stage startups??", STARTUPS, "en", "slips"),
    (
        "Do you work with early-stage startups? We're 8 people and just closed a $1.5M seed round.",
        STARTUPS,
        "en",
        "added",
    ),
    (
        "Do you work with pre-Series A startups? We're a B2B SaaS running everything off one Postgres "
        "database and we need our first warehouse.",
        STARTUPS,
        "en",
        "added",
    ),
    (
        "Hi! I'm Priya, co-founder of Loomcart, a small e-commerce tooling startup in Bangalore. We have no "
        "data people yet and the founders are doing SQL in spreadsheets. Do you work with companies at such "
        "an early stage? Thanks!",
        STARTUPS,
        "en",
        "inside",
    ),
    (
        "Hey there, Tom from a 5-person climate-tech startup in Copenhagen. Before I write you a long brief: "
        "do you take on early-stage startups at all, or mostly established companies? Cheers, Tom",
        STARTUPS,
        "en",
        "inside",
    ),
    ("Do you invest in early-stage startups or do any angel investing?", None, "en", "near_miss"),
    ("Do you take equity instead of cash when you work with startups?", None, "en", "near_miss"),
    ("Do you offer a discounted rate for early-stage startups?", None, "en", "near_miss"),
    ("Have you ever founded a startup of your own?", None, "en", "near_miss"),
    ("Could you join us full-time as our first data hire?", None, "en", "near_miss"),
    ("Do you work with large enterprises, like banks with thousands of employees?", None, "en", "near_miss"),
    ("Can you recommend any early-stage startups that are hiring data engineers?", None, "en", "near_miss"),
    # NDA
    ("Are you OK signing a confidentiality agreement before we share anything?", NDA, "en", "other_words"),
    ("Would you be willing to sign a non-disclosure agreement?", NDA, "en", "other_words"),
    (
        "Our legal team insists on an NDA before any talk about data, is that something you do?",
        NDA,
        "en",
        "other_words",
    ),
    ("Will you put your signature on a non-disclosure before we get into specifics?", NDA, "en", "other_words"),
    ("u sign ndas?", NDA, "en", "slips"),
    ("do you sign nda's", NDA, "en", "slips"),
    ("Do you sigh NDAs", NDA, "en", "slips"),
    ("Do you sign NDAs? Ours is a standard two-page mutual one that we send through DocuSign.", NDA, "en", "added"),
    ("Would you sign an NDA before we walk you through our customer data schema?", NDA, "en", "added"),
    (
        "Hello, I'm Margaret Osei, procurement at Halden Health Analytics. We handle sensitive patient-adjacent "
        "data, so before our engineers go through any details with a contractor we need a signed "
        "confidentiality agreement. Would you be willing to sign one? Kind regards, Margaret",
        NDA,
        "en",
        "inside",
    ),
    (
        "hey, quick one before our intro call thursday. we're a fintech and our lawyers are paranoid. "
        "can you sign an NDA before we show you anything?",
        NDA,
        "en",
        "inside",
    ),
    ("Can you send me your own NDA template so our lawyer can review it?", None, "en", "near_miss"),
    ("Do you make your clients sign an NDA to protect your own methods and code?", None, "en", "near_miss"),
    ("Do you sign non-compete agreements?", None, "en", "near_miss"),
    ("Can you show me some anonymized work you did under NDA?", None, "en", "near_miss"),
    ("Will you sign a data processing agreement for GDPR purposes?", None, "en", "near_miss"),
    ("How long do the confidentiality obligations usually last in your NDAs?", None, "en", "near_miss"),
    ("Are you allowed to tell me who your past clients were, or are they all under NDA?", None, "en", "near_miss"),
    # TIME_ZONE
    ("Which timezone do you work in?", TIME_ZONE, "en", "other_words"),
    ("Where are you located, time-wise?", TIME_ZONE, "en", "other_words"),
    ("Would your hours line up with a team on US Eastern time?", TIME_ZONE, "en", "other_words"),
    ("Are you on European time or US time?", TIME_ZONE, "en", "other_words"),
    ("whats ur timezone", TIME_ZONE, "en", "slips"),
    ("what timezone r u in", TIME_ZONE, "en", "slips"),
    ("wich time zone are you on", TIME_ZONE, "en", "slips"),
    ("What time zone are you in? Our team is in New York and we do standups at 9:30 ET.", TIME_ZONE, "en", "added"),
    (
        "What time zone are you in? We're a Boston company and need a few hours of overlap during our morning.",
        TIME_ZONE,
        "en",
        "added",
    ),
    (
        "Hi, this is Dan from Crestline Recruiting. I have a client in Atlanta looking for a contract data "
        "engineer for a dbt migration, and the hiring manager always asks about location first: which time "
        "zone do you work from? Thanks, Dan",
        TIME_ZONE,
        "en",
        "inside",
    ),
    (
        "Good morning! We're a distributed team, mostly in Toronto and Montreal. Before we go further, what's "
        "your time zone, and would you overlap with our mornings?",
        TIME_ZONE,
        "en",
        "inside",
    ),
    ("What are your usual working hours?", None, "en", "near_miss"),
    ("Can you overlap with our team in Sydney during their business day?", None, "en", "near_miss"),
    ("How do you handle time zones and daylight saving changes in your pipelines?", None, "en", "near_miss"),
    ("Should we store our event timestamps in UTC or in local time?", None, "en", "near_miss"),
    ("Would you be able to do on-call for incidents in the middle of the night?", None, "en", "near_miss"),
    ("Can you work California hours, like 9 to 5 Pacific?", None, "en", "near_miss"),
    # WORK
    ("What exactly do you do?", WORK, "en", "other_words"),
    ("What services do you offer?", WORK, "en", "other_words"),
    ("What's your specialty as a freelancer?", WORK, "en", "other_words"),
    ("what kinda work do u do", WORK, "en", "slips"),
    ("wat sort of projects do you take on", WORK, "en", "slips"),
    ("what type of work do you do lol", WORK, "en", "slips"),
    (
        "What kind of work do you do? We're a 60-person retailer on BigQuery and our pipelines are a mess.",
        WORK,
        "en",
        "added",
    ),
    ("What kind of data work do you do, streaming with Kafka as well as batch?", WORK, "en", "added"),
    (
        "Which kinds of projects do you take? For instance, would rescuing a slow, expensive Snowflake setup "
        "be your kind of thing?",
        WORK,
        "en",
        "added",
    ),
    (
        "Hi, I run a small marketing agency in Leeds and one of our clients keeps asking about 'data "
        "pipelines'. I'm not technical at all, so forgive the basic question: what is it you actually do "
        "for companies? Best, Fiona",
        WORK,
        "en",
        "inside",
    ),
    (
        "Hello! Stumbled on your site via a LinkedIn post from a former colleague. Sounds interesting, but I "
        "couldn't quite tell: what kind of work do you typically do for clients? Thanks, Marco",
        WORK,
        "en",
        "inside",
    ),
    ("Do you also train machine learning models and deploy them to production?", None, "en", "near_miss"),
    ("Do you build websites or mobile apps too?", None, "en", "near_miss"),
    ("Do you have experience with Databricks and Spark on Azure?", None, "en", "near_miss"),
    ("What's your day rate for pipeline work?", None, "en", "near_miss"),
    ("What kind of work environment do you prefer, quiet or collaborative?", None, "en", "near_miss"),
    ("What does your typical workday look like?", None, "en", "near_miss"),
    ("Can you explain what a data engineer does compared to a data scientist?", None, "en", "near_miss"),
    # CURRENT
    ("What are you up to these days?", CURRENT, "en", "other_words"),
    ("What's keeping you busy right now?", CURRENT, "en", "other_words"),
    ("What kind of projects are on your plate currently?", CURRENT, "en", "other_words"),
    ("Which projects are you currently involved in?", CURRENT, "en", "other_words"),
    ("wat r u working on rn", CURRENT, "en", "slips"),
    ("what are you workin on at the momment", CURRENT, "en", "slips"),
    ("whatre you working on currently", CURRENT, "en", "slips"),
    (
        "What are you working on at the moment? Anything in logistics? We're a freight forwarder.",
        CURRENT,
        "en",
        "added",
    ),
    ("What are you currently working on, and which industries are your clients in these days?", CURRENT, "en", "added"),
    (
        "Hi, I'm Helena, I write a newsletter about freelance data people and I'm featuring a few engineers "
        "next month. Could you tell me what you're working on at the moment? Happy to link your site. Helena",
        CURRENT,
        "en",
        "inside",
    ),
    (
        "Hey! Found your page through a friend. Before I pitch my project, I'm curious what sort of things "
        "you've been busy with lately. Cheers, Jonas",
        CURRENT,
        "en",
        "inside",
    ),
    ("What are you learning at the moment? Any new tools you're excited about?", None, "en", "near_miss"),
    ("What book are you reading at the moment?", None, "en", "near_miss"),
    ("Can you walk me through the architecture of TIDE-22 in detail?", None, "en", "near_miss"),
    ("How many clients are you working with at the moment?", None, "en", "near_miss"),
    ("When does your current contract end?", None, "en", "near_miss"),
    ("What was the hardest project you've ever worked on?", None, "en", "near_miss"),
    # AVAILABLE
    ("Are you taking on new clients right now?", AVAILABLE, "en", "other_words"),
    ("Do you have any capacity for a new engagement?", AVAILABLE, "en", "other_words"),
    ("Any room in your schedule for another project?", AVAILABLE, "en", "other_words"),
    ("r u available for new projects", AVAILABLE, "en", "slips"),
    ("are you availble for work", AVAILABLE, "en", "slips"),
    ("you free for new gigs", AVAILABLE, "en", "slips"),
    ("Are you available for a 4-month dbt migration? Budget is around €35k, fully remote.", AVAILABLE, "en", "added"),
    (
        "Are you open to new projects? We'd want someone on-site in Lisbon two days a week.",
        AVAILABLE,
        "en",
        "added",
    ),
    ("Could you start something new next month? It's a 3-month contract, remote.", AVAILABLE, "en", "added"),
    (
        "Hi, I'm Kwame, talent partner at Northbeam Staffing. I have a logistics client in Rotterdam that "
        "needs help rebuilding its Airflow setup, remote-first, roughly 6 months. Are you currently available "
        "for new work? Best, Kwame",
        AVAILABLE,
        "en",
        "inside",
    ),
    (
        "Hello, we're a small fintech in Lisbon and our analytics platform keeps falling over. We'd love "
        "some help soon. Are you taking on projects at the moment, and could you come into the office "
        "sometimes?",
        AVAILABLE,
        "en",
        "inside",
    ),
    ("Are you available for a quick call tomorrow at 3pm?", None, "en", "near_miss"),
    ("Are you available for a full-time permanent position?", None, "en", "near_miss"),
    ("Are you available to give a talk at our data meetup in March?", None, "en", "near_miss"),
    ("How many hours per week could you dedicate to us?", None, "en", "near_miss"),
    ("Are you available for emergency support on weekends?", None, "en", "near_miss"),
    ("Would you be available as a reference for a former colleague of yours?", None, "en", "near_miss"),
    # CONTACT
    ("What's the best way to reach you?", CONTACT, "en", "other_words"),
    ("How do I contact you?", CONTACT, "en", "other_words"),
    ("How would I go about booking a call with you?", CONTACT, "en", "other_words"),
    ("Can I schedule a chat with you somehow?", CONTACT, "en", "other_words"),
    ("how do i reach u", CONTACT, "en", "slips"),
    ("how can i get a hold of you", CONTACT, "en", "slips"),
    ("hw do i get in tuch", CONTACT, "en", "slips"),
    (
        "How can I get in touch about a BigQuery project? It's for a 30-person retailer in Manchester.",
        CONTACT,
        "en",
        "added",
    ),
    ("How do I contact you to discuss a possible 3-month engagement?", CONTACT, "en", "added"),
    (
        "Hi there, I'm Sofia from Arcadia Labs. We've been looking for someone to sort out our Kafka mess and "
        "your profile fits. What's the easiest way to get in touch with you properly to discuss it? "
        "Thanks, Sofia",
        CONTACT,
        "en",
        "inside",
    ),
    (
        "hello, my boss asked me to find a data engineer and I found your site. how do we start a "
        "conversation with you? thx",
        CONTACT,
        "en",
        "inside",
    ),
    ("Can you put me in touch with a previous client for a reference?", None, "en", "near_miss"),
    ("How quickly do you usually reply to messages?", None, "en", "near_miss"),
    ("I booked a call for Tuesday, how do I reschedule it?", None, "en", "near_miss"),
    ("How do I unsubscribe from your newsletter emails?", None, "en", "near_miss"),
    ("Could you get in touch with our CTO directly instead of me?", None, "en", "near_miss"),
    ("Can you recommend another freelancer I could contact if you're booked up?", None, "en", "near_miss"),
    # RELOCATION
    ("Would you be willing to relocate for a role?", RELOCATION, "en", "other_words"),
    ("Would you consider moving abroad for the right opportunity?", RELOCATION, "en", "other_words"),
    ("Is moving to another city on the table for you?", RELOCATION, "en", "other_words"),
    ("r u open to relocating", RELOCATION, "en", "slips"),
    ("wuld u relocate for work", RELOCATION, "en", "slips"),
    ("Are you open to relocaiton", RELOCATION, "en", "slips"),
    (
        "Are you open to relocating to Amsterdam? We'd sponsor the visa and cover moving costs.",
        RELOCATION,
        "en",
        "added",
    ),
    ("Would you relocate to Zurich for a 12-month contract? The package is generous.", RELOCATION, "en", "added"),
    (
        "Dear candidate, I'm Laura from TalentBridge in Munich. We're hiring a senior data engineer for an "
        "onsite role in Berlin, and the client pays relocation. Would you be open to moving to Germany for "
        "this? Best regards, Laura",
        RELOCATION,
        "en",
        "inside",
    ),
    (
        "Hi, Rahul here from a scale-up in Dubai. We love your profile. Honest question before I take this "
        "to our CEO: is relocating something you'd entertain, or are you strictly remote?",
        RELOCATION,
        "en",
        "inside",
    ),
    ("Can you help us relocate our data warehouse from us-east-1 to an EU region?", None, "en", "near_miss"),
    ("Do you need visa sponsorship to work for a UK company remotely?", None, "en", "near_miss"),
    ("Why did you move to Lisbon in the first place?", None, "en", "near_miss"),
    ("Would you fly over to London for a two-day kickoff workshop?", None, "en", "near_miss"),
    ("Can you recommend a relocation agency in Lisbon? I'm moving there next year.", None, "en", "near_miss"),
    ("Are you open to a full-time permanent contract instead of freelancing?", None, "en", "near_miss"),
    # ------------------------------------------------------------------
    # Spanish
    # ------------------------------------------------------------------
    # STARTUPS
    ("¿Trabajas con empresas emergentes que están empezando?", STARTUPS, "es", "other_words"),
    (
        "¿Sueles trabajar con startups recién creadas, de las que aún no tienen equipo de datos?",
        STARTUPS,
        "es",
        "other_words",
    ),
    ("trabajas con startups pequeñas??", STARTUPS, "es", "slips"),
    (
        "¿Trabajas con startups en fase semilla? Somos 6 personas en Valencia y acabamos de cerrar una ronda pre-seed.",
        STARTUPS,
        "es",
        "added",
    ),
    (
        "Hola, soy Lucía, cofundadora de una startup de logística en Bogotá. Todavía no tenemos a nadie de "
        "datos y todo vive en hojas de cálculo. ¿Colaboras con startups tan tempranas como la nuestra? Gracias.",
        STARTUPS,
        "es",
        "inside",
    ),
    ("¿Inviertes en startups o haces de business angel?", None, "es", "near_miss"),
    ("¿Aceptas participaciones (equity) en lugar de cobrar en dinero?", None, "es", "near_miss"),
    # NDA
    ("¿Estarías dispuesto a firmar un acuerdo de confidencialidad?", NDA, "es", "other_words"),
    ("firmas nda", NDA, "es", "slips"),
    ("¿Firmas NDAs? El nuestro es mutuo y tiene dos páginas.", NDA, "es", "added"),
    (
        "Buenas, soy Jorge, del departamento legal de Finvalia. Antes de enseñarte cualquier dato de clientes "
        "necesitamos que firmes un NDA. ¿Lo firmarías? Un saludo.",
        NDA,
        "es",
        "inside",
    ),
    ("¿Me puedes pasar tu plantilla de NDA para que la revise nuestro abogado?", None, "es", "near_miss"),
    ("¿Firmas cláusulas de no competencia?", None, "es", "near_miss"),
    ("¿Puedes enseñarme algún proyecto que hiciste bajo NDA?", None, "es", "near_miss"),
    # TIME_ZONE
    ("¿En qué huso horario trabajas?", TIME_ZONE, "es", "other_words"),
    ("¿Tu horario coincide con las mañanas de la costa este de Estados Unidos?", TIME_ZONE, "es", "other_words"),
    ("q zona horaria tienes", TIME_ZONE, "es", "slips"),
    (
        "¿En qué zona horaria estás? Nuestro equipo está en Nueva York y las dailies son a las 9:00.",
        TIME_ZONE,
        "es",
        "added",
    ),
    (
        "Hola, soy Andrés, recruiter en Madrid. Mi cliente es una empresa de Miami y le importa mucho el "
        "solapamiento horario. ¿Desde qué zona horaria trabajas? Gracias.",
        TIME_ZONE,
        "es",
        "inside",
    ),
    ("¿Cuál es tu horario laboral habitual?", None, "es", "near_miss"),
    ("¿Cómo gestionas las zonas horarias y el cambio de hora en los pipelines?", None, "es", "near_miss"),
    ("¿Puedes coincidir con nuestro equipo de Sídney en su horario de oficina?", None, "es", "near_miss"),
    # WORK
    ("¿A qué te dedicas exactamente?", WORK, "es", "other_words"),
    ("¿Qué servicios ofreces?", WORK, "es", "other_words"),
    ("q tipo de trabajos haces", WORK, "es", "slips"),
    (
        "¿Qué tipo de trabajo haces? Somos una cadena de tiendas de 80 personas con BigQuery y pipelines que "
        "fallan cada semana.",
        WORK,
        "es",
        "added",
    ),
    (
        "Hola, llevo una agencia de marketing en Sevilla y un cliente no para de pedirnos 'pipelines de datos'. "
        "No soy técnica, así que perdona la pregunta: ¿qué haces tú exactamente para las empresas? Saludos, Carmen",
        WORK,
        "es",
        "inside",
    ),
    ("¿También entrenas modelos de machine learning?", None, "es", "near_miss"),
    ("¿Cuánto cobras por día?", None, "es", "near_miss"),
    ("¿Tienes experiencia con Databricks en Azure?", None, "es", "near_miss"),
    # CURRENT
    ("¿En qué andas metido últimamente?", CURRENT, "es", "other_words"),
    ("en q estas trabajando ahora", CURRENT, "es", "slips"),
    ("¿En qué proyectos estás ahora? ¿Algo de logística? Somos una transitaria.", CURRENT, "es", "added"),
    (
        "Hola, soy Marta y escribo una newsletter sobre freelancers de datos. ¿Me cuentas en qué estás "
        "trabajando estos días? Te enlazo la web encantada.",
        CURRENT,
        "es",
        "inside",
    ),
    ("¿Qué estás aprendiendo ahora mismo?", None, "es", "near_miss"),
    ("¿Cuándo termina tu contrato actual?", None, "es", "near_miss"),
    ("¿Me explicas en detalle la arquitectura de TIDE-22?", None, "es", "near_miss"),
    # AVAILABLE
    ("¿Aceptas nuevos clientes?", AVAILABLE, "es", "other_words"),
    ("¿Tienes hueco para un proyecto más?", AVAILABLE, "es", "other_words"),
    ("estas disponible para proyectos nuevos", AVAILABLE, "es", "slips"),
    (
        "¿Estás libre para un proyecto de 4 meses en remoto? El presupuesto ronda los 30.000 €.",
        AVAILABLE,
        "es",
        "added",
    ),
    (
        "Buenas tardes, soy Raúl de TalentSur. Tengo un cliente de retail en Lisboa que necesita rehacer su "
        "Airflow, unos 6 meses, con alguna visita a la oficina. ¿Tienes disponibilidad para proyectos nuevos? "
        "Un saludo.",
        AVAILABLE,
        "es",
        "inside",
    ),
    ("¿Estás disponible para una llamada mañana a las 16:00?", None, "es", "near_miss"),
    ("¿Estarías disponible para un puesto fijo a jornada completa?", None, "es", "near_miss"),
    ("¿Cuántas horas a la semana nos podrías dedicar?", None, "es", "near_miss"),
    # CONTACT
    ("¿Cuál es la mejor forma de contactarte?", CONTACT, "es", "other_words"),
    ("¿Puedo reservar una llamada contigo?", CONTACT, "es", "other_words"),
    ("como te contacto", CONTACT, "es", "slips"),
    (
        "¿Cómo me pongo en contacto contigo para hablar de un proyecto con Snowflake? Somos una fintech de 25 personas.",
        CONTACT,
        "es",
        "added",
    ),
    (
        "Hola, soy Elena, de Grupo Arnedo. Mi jefe me ha pedido que encuentre a alguien para arreglar nuestros "
        "pipelines y he dado con tu web. ¿Cómo podemos hablar contigo? Gracias.",
        CONTACT,
        "es",
        "inside",
    ),
    ("¿Me pones en contacto con algún cliente anterior para pedir referencias?", None, "es", "near_miss"),
    ("¿Cuánto sueles tardar en contestar?", None, "es", "near_miss"),
    ("Reservé una llamada para el martes, ¿cómo la cambio de día?", None, "es", "near_miss"),
    # RELOCATION
    ("¿Te mudarías a otro país por un proyecto?", RELOCATION, "es", "other_words"),
    ("estarias dispuesto a mudarte a madrid", RELOCATION, "es", "slips"),
    (
        "¿Te plantearías mudarte a Barcelona? Pagamos la mudanza y el primer mes de alquiler.",
        RELOCATION,
        "es",
        "added",
    ),
    (
        "Hola, soy Pablo, de una scale-up en Ciudad de México. Nos encanta tu perfil, pero el puesto es "
        "presencial aquí. ¿Estarías abierto a trasladarte? Saludos.",
        RELOCATION,
        "es",
        "inside",
    ),
    ("¿Nos ayudas a migrar nuestro data warehouse a otra región de la nube?", None, "es", "near_miss"),
    ("¿Vendrías a Madrid dos días para un taller de arranque?", None, "es", "near_miss"),
    ("¿Por qué te fuiste a vivir a Lisboa?", None, "es", "near_miss"),
    # ------------------------------------------------------------------
    # Portuguese (European and Brazilian)
    # ------------------------------------------------------------------
    # STARTUPS
    ("Costumas trabalhar com startups que ainda estão no início?", STARTUPS, "pt", "other_words"),
    (
        "Você costuma pegar projetos de startups bem no comecinho, sem time de dados ainda?",
        STARTUPS,
        "pt",
        "other_words",
    ),
    ("vc trabalha com startup em estagio inicial", STARTUPS, "pt", "slips"),
    (
        "Você trabalha com startups early-stage? Somos 7 pessoas em Florianópolis e acabamos de levantar uma rodada seed.",
        STARTUPS,
        "pt",
        "added",
    ),
    (
        "Olá, sou o Tiago, cofundador de uma startup de mobilidade em Braga. Ainda não temos ninguém de dados "
        "e anda tudo em folhas de Excel. Trabalhas com empresas nesta fase tão inicial? Obrigado!",
        STARTUPS,
        "pt",
        "inside",
    ),
    ("Você investe em startups ou atua como investidor-anjo?", None, "pt", "near_miss"),
    ("Fazes desconto para startups em fase inicial?", None, "pt", "near_miss"),
    # NDA
    ("Você topa assinar um termo de sigilo antes da gente conversar?", NDA, "pt", "other_words"),
    ("assinas nda?", NDA, "pt", "slips"),
    ("Assinas NDAs? O nosso é mútuo, tem duas páginas e é enviado por DocuSign.", NDA, "pt", "added"),
    (
        "Oi, aqui é a Juliana, do jurídico da PagFácil. Antes de mostrar qualquer dado de cliente, precisamos "
        "de um NDA assinado. Você assinaria? Abraço.",
        NDA,
        "pt",
        "inside",
    ),
    ("Podes enviar-me o teu modelo de NDA para o nosso advogado rever?", None, "pt", "near_miss"),
    ("Você assina cláusula de não concorrência?", None, "pt", "near_miss"),
    ("Pode mostrar algum projeto que você fez sob NDA?", None, "pt", "near_miss"),
    # TIME_ZONE
    ("Qual é o seu fuso?", TIME_ZONE, "pt", "other_words"),
    ("O teu horário bate com as manhãs da costa leste americana?", TIME_ZONE, "pt", "other_words"),
    ("q fuso horario tens", TIME_ZONE, "pt", "slips"),
    ("Em que fuso horário você está? Nosso time fica em Nova York e a daily é às 9h.", TIME_ZONE, "pt", "added"),
    (
        "Bom dia, sou a Inês, recrutadora em Lisboa. O meu cliente é uma empresa de Boston e pergunta sempre "
        "pela sobreposição de horários. Em que fuso trabalhas? Obrigada.",
        TIME_ZONE,
        "pt",
        "inside",
    ),
    ("Qual é o seu horário de trabalho?", None, "pt", "near_miss"),
    ("Como lidas com fusos horários e a mudança de hora nos pipelines?", None, "pt", "near_miss"),
    ("Você consegue trabalhar no horário de Brasília, das 9h às 18h?", None, "pt", "near_miss"),
    # WORK
    ("O que fazes exatamente?", WORK, "pt", "other_words"),
    ("Quais serviços você oferece?", WORK, "pt", "other_words"),
    ("q tipo de trampo vc faz", WORK, "pt", "slips"),
    (
        "Que tipo de trabalho você faz? Somos um e-commerce de 50 pessoas no BigQuery e os pipelines vivem quebrando.",
        WORK,
        "pt",
        "added",
    ),
    (
        "Olá, tenho uma pequena agência de comunicação no Porto e um cliente pediu-nos ajuda com 'pipelines de "
        "dados'. Não percebo nada disto, por isso desculpa a pergunta: o que é que fazes ao certo para as "
        "empresas? Cumprimentos, Rita",
        WORK,
        "pt",
        "inside",
    ),
    ("Você também treina modelos de machine learning?", None, "pt", "near_miss"),
    ("Quanto cobras por dia?", None, "pt", "near_miss"),
    ("Você desenvolve sites ou aplicativos?", None, "pt", "near_miss"),
    # CURRENT
    ("O que você anda fazendo ultimamente?", CURRENT, "pt", "other_words"),
    ("em q estas a trabalhar agora", CURRENT, "pt", "slips"),
    (
        "No que você está trabalhando agora? Algo de logística? Somos uma transportadora de Curitiba.",
        CURRENT,
        "pt",
        "added",
    ),
    (
        "Olá! Escrevo uma newsletter sobre freelancers de dados e vou destacar alguns no próximo mês. Podes "
        "contar-me em que andas a trabalhar neste momento? Ponho o link para o teu site. Sara",
        CURRENT,
        "pt",
        "inside",
    ),
    ("O que estás a aprender neste momento?", None, "pt", "near_miss"),
    ("Quando termina o seu contrato atual?", None, "pt", "near_miss"),
    ("Quantos clientes você atende hoje?", None, "pt", "near_miss"),
    # AVAILABLE
    ("Estás a aceitar novos clientes?", AVAILABLE, "pt", "other_words"),
    ("Você tem agenda para pegar um projeto novo?", AVAILABLE, "pt", "other_words"),
    ("vc ta disponivel pra projeto novo", AVAILABLE, "pt", "slips"),
    (
        "Tens disponibilidade para um projeto de 4 meses, remoto? O orçamento anda nos 30 mil euros.",
        AVAILABLE,
        "pt",
        "added",
    ),
    (
        "Boa tarde, sou o Felipe, da Talentos Tech. Tenho um cliente de varejo que precisa reconstruir o "
        "Airflow, uns 6 meses, remoto. Você está disponível para novos projetos? Abraço.",
        AVAILABLE,
        "pt",
        "inside",
    ),
    ("Você está disponível para uma call amanhã às 15h?", None, "pt", "near_miss"),
    ("Estarias disponível para um lugar efetivo a tempo inteiro?", None, "pt", "near_miss"),
    ("Quantas horas por semana nos podias dedicar?", None, "pt", "near_miss"),
    # CONTACT
    ("Qual a melhor forma de falar com você?", CONTACT, "pt", "other_words"),
    ("Posso marcar uma chamada contigo?", CONTACT, "pt", "other_words"),
    ("como e q te contacto", CONTACT, "pt", "slips"),
    (
        "Como posso entrar em contacto contigo para falar de um projeto com Snowflake? Somos uma fintech de "
        "20 pessoas em Lisboa.",
        CONTACT,
        "pt",
        "added",
    ),
    (
        "Oi, sou a Camila da Agência Faro. Meu chefe pediu pra eu achar alguém pra arrumar nossos pipelines "
        "e cheguei no seu site. Como a gente faz pra conversar com você? Valeu!",
        CONTACT,
        "pt",
        "inside",
    ),
    ("Você pode me passar o contato de um cliente antigo para referência?", None, "pt", "near_miss"),
    ("Quanto tempo costumas demorar a responder?", None, "pt", "near_miss"),
    ("Agendei uma call para terça, como faço para remarcar?", None, "pt", "near_miss"),
    # RELOCATION
    ("Você se mudaria para outro país por um bom projeto?", RELOCATION, "pt", "other_words"),
    ("estarias disposto a mudar de pais", RELOCATION, "pt", "slips"),
    (
        "Você toparia se mudar para São Paulo? Pagamos a mudança e ajudamos com o visto.",
        RELOCATION,
        "pt",
        "added",
    ),
    (
        "Olá, sou o Miguel, de uma scale-up em Amesterdão. Gostamos muito do teu perfil, mas a função é "
        "presencial cá. Estarias aberto a mudar-te para os Países Baixos? Cumprimentos.",
        RELOCATION,
        "pt",
        "inside",
    ),
    ("Podes ajudar-nos a migrar o data warehouse para outra região da cloud?", None, "pt", "near_miss"),
    ("Você viria a São Paulo por dois dias para um workshop de kickoff?", None, "pt", "near_miss"),
    ("Porque é que foste viver para Lisboa?", None, "pt", "near_miss"),
    # ------------------------------------------------------------------
    # French
    # ------------------------------------------------------------------
    ("Travaillez-vous avec des startups en phase d'amorçage ?", STARTUPS, "fr", "other_words"),
    (
        "Bonjour, je suis Claire, cofondatrice d'une jeune startup lyonnaise de 5 personnes. Nous n'avons "
        "personne pour la data. Est-ce que vous accompagnez des startups aussi jeunes ? Merci !",
        STARTUPS,
        "fr",
        "inside",
    ),
    ("Prenez-vous des parts (equity) au lieu d'être payé ?", None, "fr", "near_miss"),
    ("Acceptez-vous de signer un accord de confidentialité ?", NDA, "fr", "other_words"),
    ("vous signez des NDA?", NDA, "fr", "slips"),
    ("Pouvez-vous m'envoyer votre modèle de NDA ?", None, "fr", "near_miss"),
    ("Vous êtes sur quel fuseau horaire ?", TIME_ZONE, "fr", "other_words"),
    (
        "Quel est votre fuseau horaire ? Notre équipe est à Montréal et le stand-up est à 9 h.",
        TIME_ZONE,
        "fr",
        "added",
    ),
    ("Quels sont vos horaires de travail ?", None, "fr", "near_miss"),
    ("Quel genre de missions faites-vous ?", WORK, "fr", "other_words"),
    (
        "Qu'est-ce que vous faites exactement ? On est une PME de 40 personnes sur Snowflake et nos pipelines sont lents.",
        WORK,
        "fr",
        "added",
    ),
    ("Faites-vous aussi du machine learning ?", None, "fr", "near_miss"),
    ("Vous bossez sur quoi en ce moment ?", CURRENT, "fr", "other_words"),
    ("Qu'est-ce que vous apprenez en ce moment ?", None, "fr", "near_miss"),
    ("etes vous dispo pour de nouveaux projets", AVAILABLE, "fr", "slips"),
    (
        "Bonjour, je suis Julien, recruteur chez DataTalents à Paris. J'ai un client dans la logistique qui "
        "cherche un freelance pour 6 mois en remote. Êtes-vous disponible pour une nouvelle mission ? Cordialement",
        AVAILABLE,
        "fr",
        "inside",
    ),
    ("Êtes-vous disponible pour un appel demain à 14 h ?", None, "fr", "near_miss"),
    ("Quel est le meilleur moyen de vous joindre ?", CONTACT, "fr", "other_words"),
    ("Pouvez-vous me mettre en contact avec un ancien client ?", None, "fr", "near_miss"),
    (
        "Seriez-vous prêt à vous installer à Bruxelles ? Nous prenons en charge le déménagement.",
        RELOCATION,
        "fr",
        "added",
    ),
    (
        "Pouvez-vous nous aider à déplacer notre entrepôt de données vers une région européenne ?",
        None,
        "fr",
        "near_miss",
    ),
    # ------------------------------------------------------------------
    # German
    # ------------------------------------------------------------------
    ("Arbeiten Sie auch mit jungen Startups in der Frühphase?", STARTUPS, "de", "other_words"),
    ("arbeitest du mit early stage startups", STARTUPS, "de", "slips"),
    ("Investieren Sie selbst in Startups?", None, "de", "near_miss"),
    ("Unterschreiben Sie eine Vertraulichkeitsvereinbarung?", NDA, "de", "other_words"),
    (
        "Hallo, hier ist Katrin aus der Rechtsabteilung der Nordhafen Logistik GmbH. Bevor wir Ihnen Daten "
        "zeigen, brauchen wir eine unterschriebene Geheimhaltungsvereinbarung. Wären Sie dazu bereit? Viele Grüße",
        NDA,
        "de",
        "inside",
    ),
    ("Unterschreiben Sie auch Wettbewerbsverbote?", None, "de", "near_miss"),
    ("In welcher Zeitzone arbeitest du?", TIME_ZONE, "de", "other_words"),
    ("welche zeitzone bist du", TIME_ZONE, "de", "slips"),
    ("Wie gehen Sie in Pipelines mit Zeitzonen und Sommerzeit um?", None, "de", "near_miss"),
    ("Was genau machst du beruflich?", WORK, "de", "other_words"),
    (
        "Welche Art von Projekten machen Sie? Wir sind ein Onlinehändler mit 70 Leuten und nutzen BigQuery und dbt.",
        WORK,
        "de",
        "added",
    ),
    ("Wie hoch ist Ihr Tagessatz?", None, "de", "near_miss"),
    ("Woran arbeitest du gerade so?", CURRENT, "de", "other_words"),
    ("Wann endet Ihr aktuelles Projekt?", None, "de", "near_miss"),
    (
        "Haben Sie Kapazität für ein neues Projekt? Es geht um ca. 5 Monate remote, Budget rund 40.000 €.",
        AVAILABLE,
        "de",
        "added",
    ),
    ("bist du grad verfügbar für neue projekte", AVAILABLE, "de", "slips"),
    ("Hätten Sie morgen um 10 Uhr Zeit für ein kurzes Telefonat?", None, "de", "near_miss"),
    (
        "Hallo! Ich bin Felix, Gründer eines kleinen Fintechs in Hamburg. Unser Data-Setup ist ein Chaos. "
        "Wie kann ich Sie am besten erreichen, um das zu besprechen? Danke!",
        CONTACT,
        "de",
        "inside",
    ),
    ("Wie schnell antworten Sie normalerweise auf Anfragen?", None, "de", "near_miss"),
    ("Wären Sie bereit, nach München umzuziehen? Wir übernehmen die Umzugskosten.", RELOCATION, "de", "added"),
    ("Würden Sie für einen zweitägigen Workshop nach Berlin reisen?", None, "de", "near_miss"),
)
