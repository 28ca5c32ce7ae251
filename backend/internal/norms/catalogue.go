package norms

// The catalogue. Names are the ones cases already store; add norms, never
// rename one (cases and transcripts refer to them). Repealed norms are left
// out: a case must cite the law in force.
//
// Aliases are folded (lowercase, no accents, no punctuation). They include
// the names heard in rehearsals and common mishearings of recognizers
// ("koip", "cogeb"); the canonical name, the official name and the
// abbreviation are added automatically.
//
// Sources: none of these addresses could be checked when the catalogue was
// written (no network). Each points at the official publisher most likely
// to keep the consolidated text online; where only a site's home is given,
// the deep link to the text is still to be found. Every Source marked
// "review" needs a person to confirm it before it is shown to students.
var catalogue = []Norm{
	{
		Name: "Constitución", FullName: "Constitución de la República del Ecuador", Kind: KindConstitution,
		Aliases: []string{
			"constitucion", "constitucion de la republica", "constitucion de la republica del ecuador",
			"constitucion del ecuador", "constitucion politica", "constitucion politica del ecuador",
			"constitucion politica de la republica", "constitucion de montecristi",
			"constitucion ecuatoriana", "misma constitucion", "carta magna", "norma suprema",
			"ley suprema", "norma fundamental", "carta fundamental", "ley fundamental",
			"texto constitucional", "carta constitucional",
		},
		Acronyms:    []string{"cre"},
		LastArticle: 450,
		// review: the Asamblea Nacional publishes the text; deep link to be confirmed.
		Source: "https://www.asambleanacional.gob.ec/",
	},
	{
		Name: "COIP", FullName: "Código Orgánico Integral Penal", Abbreviation: "COIP", Kind: KindCode,
		Aliases: []string{
			"codigo organico integral penal", "codigo integral penal", "codigo organico penal",
			"codigo penal", "cojip", "koip", "cohip",
		},
		Acronyms:    []string{"coip"},
		LastArticle: 750,
		// review: published by the Consejo de la Judicatura among the norms of the Función Judicial.
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "Código Civil", FullName: "Código Civil", Kind: KindCode,
		Aliases:           []string{"codigo civil", "codigo civil ecuatoriano"},
		AmbiguousAcronyms: []string{"cc"},
		LastArticle:       2500,
		// review
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "COGEP", FullName: "Código Orgánico General de Procesos", Abbreviation: "COGEP", Kind: KindCode,
		Aliases: []string{
			"codigo organico general de procesos", "codigo general de procesos",
			"codigo organico general del proceso", "kogep", "cogeb", "cojep",
		},
		Acronyms:    []string{"cogep"},
		LastArticle: 470,
		// review
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "Código del Trabajo", FullName: "Código del Trabajo", Kind: KindCode,
		Aliases:     []string{"codigo del trabajo", "codigo de trabajo", "codigo laboral"},
		LastArticle: 700,
		// review: the Ministerio del Trabajo publishes the codified text.
		Source: "https://www.trabajo.gob.ec/",
	},
	{
		Name: "LOGJCC", FullName: "Ley Orgánica de Garantías Jurisdiccionales y Control Constitucional", Abbreviation: "LOGJCC", Kind: KindLaw,
		Aliases: []string{
			"ley organica de garantias jurisdiccionales y control constitucional",
			"ley de garantias jurisdiccionales y control constitucional",
			"ley organica de garantias jurisdiccionales", "ley de garantias jurisdiccionales",
			"ley de garantias", "lojcc", "logjc", "lgjcc",
		},
		Acronyms:    []string{"logjcc"},
		LastArticle: 210,
		// review: the Corte Constitucional publishes the law it applies.
		Source: "https://www.corteconstitucional.gob.ec/",
	},
	{
		Name: "Código de la Niñez y Adolescencia", FullName: "Código de la Niñez y Adolescencia", Abbreviation: "CONA", Kind: KindCode,
		Aliases: []string{
			"codigo de la ninez y adolescencia", "codigo de la ninez y la adolescencia",
			"codigo organico de la ninez y adolescencia", "codigo de ninez y adolescencia",
			"codigo de la ninez",
		},
		Acronyms:    []string{"cona"},
		LastArticle: 400,
		// review
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "COA", FullName: "Código Orgánico Administrativo", Abbreviation: "COA", Kind: KindCode,
		Aliases:     []string{"codigo organico administrativo", "codigo administrativo"},
		Acronyms:    []string{"coa"},
		LastArticle: 300,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "COFJ", FullName: "Código Orgánico de la Función Judicial", Abbreviation: "COFJ", Kind: KindCode,
		Aliases:     []string{"codigo organico de la funcion judicial", "codigo de la funcion judicial"},
		Acronyms:    []string{"cofj"},
		LastArticle: 360,
		// review
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "LOSEP", FullName: "Ley Orgánica del Servicio Público", Abbreviation: "LOSEP", Kind: KindLaw,
		Aliases: []string{
			"ley organica del servicio publico", "ley organica de servicio publico",
			"ley del servicio publico", "ley de servicio publico",
		},
		Acronyms:    []string{"losep"},
		LastArticle: 150,
		// review: the Ministerio del Trabajo publishes it.
		Source: "https://www.trabajo.gob.ec/",
	},
	{
		Name: "LOSNCP", FullName: "Ley Orgánica del Sistema Nacional de Contratación Pública", Abbreviation: "LOSNCP", Kind: KindLaw,
		Aliases: []string{
			"ley organica del sistema nacional de contratacion publica",
			"ley del sistema nacional de contratacion publica",
			"ley organica de contratacion publica", "ley de contratacion publica",
		},
		Acronyms:    []string{"losncp"},
		LastArticle: 120,
		// review: the Servicio Nacional de Contratación Pública publishes it.
		Source: "https://portal.compraspublicas.gob.ec/",
	},
	{
		Name: "LOES", FullName: "Ley Orgánica de Educación Superior", Abbreviation: "LOES", Kind: KindLaw,
		Aliases:     []string{"ley organica de educacion superior", "ley de educacion superior"},
		Acronyms:    []string{"loes"},
		LastArticle: 230,
		// review: the Consejo de Educación Superior publishes it.
		Source: "https://www.ces.gob.ec/",
	},
	{
		Name: "LOEI", FullName: "Ley Orgánica de Educación Intercultural", Abbreviation: "LOEI", Kind: KindLaw,
		Aliases:     []string{"ley organica de educacion intercultural", "ley de educacion intercultural"},
		Acronyms:    []string{"loei"},
		LastArticle: 160,
		// review: the Ministerio de Educación publishes it.
		Source: "https://educacion.gob.ec/",
	},
	// Norms no case of the first bank cites, for the areas a law faculty's
	// exam covers: territorial organisation, transparency and data,
	// violence against women, tax, commercial and company law,
	// environment, international law and human mobility, arbitration,
	// consumers, leases, notaries.
	{
		Name: "COOTAD", FullName: "Código Orgánico de Organización Territorial, Autonomía y Descentralización", Abbreviation: "COOTAD", Kind: KindCode,
		Aliases: []string{
			"codigo organico de organizacion territorial", "codigo de organizacion territorial",
			"codigo organico de organizacion territorial autonomia y descentralizacion",
			"codigo de organizacion territorial autonomia y descentralizacion", "cotad", "kootad",
		},
		Acronyms:    []string{"cootad"},
		LastArticle: 620,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "LOTAIP", FullName: "Ley Orgánica de Transparencia y Acceso a la Información Pública", Abbreviation: "LOTAIP", Kind: KindLaw,
		Aliases: []string{
			"ley organica de transparencia y acceso a la informacion publica",
			"ley de transparencia y acceso a la informacion publica",
			"ley de acceso a la informacion publica", "ley de transparencia",
		},
		Acronyms:    []string{"lotaip"},
		LastArticle: 80,
		// review: the Defensoría del Pueblo oversees the law.
		Source: "https://www.dpe.gob.ec/",
	},
	{
		Name: "LOPDP", FullName: "Ley Orgánica de Protección de Datos Personales", Abbreviation: "LOPDP", Kind: KindLaw,
		Aliases: []string{
			"ley organica de proteccion de datos personales", "ley de proteccion de datos personales",
			"ley organica de proteccion de datos", "ley de proteccion de datos",
		},
		Acronyms:    []string{"lopdp"},
		LastArticle: 90,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "LOIPEVM", FullName: "Ley Orgánica Integral para Prevenir y Erradicar la Violencia contra las Mujeres", Abbreviation: "LOIPEVM", Kind: KindLaw,
		Aliases: []string{
			"ley organica integral para prevenir y erradicar la violencia contra las mujeres",
			"ley integral para prevenir y erradicar la violencia contra las mujeres",
			"ley organica para prevenir y erradicar la violencia contra las mujeres",
			"ley para prevenir y erradicar la violencia contra las mujeres",
			"ley organica integral para prevenir y erradicar la violencia contra la mujer",
			"ley de violencia contra la mujer", "ley de violencia contra las mujeres",
		},
		Acronyms:    []string{"loipevm"},
		LastArticle: 80,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "Código Tributario", FullName: "Código Tributario", Kind: KindCode,
		Aliases:     []string{"codigo tributario", "codigo tributario ecuatoriano"},
		LastArticle: 420,
		// review: the Servicio de Rentas Internas publishes the tax norms.
		Source: "https://www.sri.gob.ec/",
	},
	{
		Name: "LORTI", FullName: "Ley de Régimen Tributario Interno", Abbreviation: "LORTI", Kind: KindLaw,
		Aliases: []string{
			"ley de regimen tributario interno", "ley organica de regimen tributario interno",
			"ley de regimen tributario", "lrti",
		},
		Acronyms:    []string{"lorti"},
		LastArticle: 140,
		// review
		Source: "https://www.sri.gob.ec/",
	},
	{
		Name: "Código de Comercio", FullName: "Código de Comercio", Kind: KindCode,
		Aliases:     []string{"codigo de comercio", "codigo comercial", "nuevo codigo de comercio"},
		LastArticle: 1300,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "Ley de Compañías", FullName: "Ley de Compañías", Kind: KindLaw,
		Aliases:     []string{"ley de companias", "ley de compania"},
		LastArticle: 480,
		// review: the Superintendencia de Compañías, Valores y Seguros publishes it.
		Source: "https://www.supercias.gob.ec/",
	},
	{
		Name: "COMF", FullName: "Código Orgánico Monetario y Financiero", Abbreviation: "COMF", Kind: KindCode,
		Aliases: []string{
			"codigo organico monetario y financiero", "codigo monetario y financiero", "codigo monetario",
		},
		Acronyms:    []string{"comf", "comyf"},
		LastArticle: 600,
		// review: the Junta de Política y Regulación Financiera and the Superintendencia de Bancos publish it.
		Source: "https://www.superbancos.gob.ec/",
	},
	{
		Name: "COPCI", FullName: "Código Orgánico de la Producción, Comercio e Inversiones", Abbreviation: "COPCI", Kind: KindCode,
		Aliases: []string{
			"codigo organico de la produccion comercio e inversiones",
			"codigo de la produccion comercio e inversiones", "codigo organico de la produccion",
			"codigo de la produccion",
		},
		Acronyms:    []string{"copci"},
		LastArticle: 240,
		// review: the ministry in charge of production publishes it.
		Source: "https://www.produccion.gob.ec/",
	},
	{
		Name: "Ley Orgánica de Defensa del Consumidor", FullName: "Ley Orgánica de Defensa del Consumidor", Abbreviation: "LODC", Kind: KindLaw,
		Aliases: []string{
			"ley organica de defensa del consumidor", "ley de defensa del consumidor",
			"ley del consumidor", "ley organica del consumidor", "ley de defensa al consumidor",
			"ley de proteccion al consumidor",
		},
		Acronyms:    []string{"lodc"},
		LastArticle: 100,
		// review: the Defensoría del Pueblo protects consumers under this law.
		Source: "https://www.dpe.gob.ec/",
	},
	{
		Name: "Ley de Arbitraje y Mediación", FullName: "Ley de Arbitraje y Mediación", Kind: KindLaw,
		Aliases: []string{
			"ley de arbitraje y mediacion", "ley de arbitraje", "ley de mediacion y arbitraje",
			"ley de mediacion",
		},
		LastArticle: 70,
		// review
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "Ley de Inquilinato", FullName: "Ley de Inquilinato", Kind: KindLaw,
		Aliases:     []string{"ley de inquilinato", "ley del inquilinato"},
		LastArticle: 60,
		// review
		Source: "https://www.registroficial.gob.ec/",
	},
	{
		Name: "Ley de Comercio Electrónico", FullName: "Ley de Comercio Electrónico, Firmas Electrónicas y Mensajes de Datos", Kind: KindLaw,
		Aliases: []string{
			"ley de comercio electronico", "ley de comercio electronico firmas electronicas y mensajes de datos",
			"ley de comercio electronico firmas y mensajes de datos", "ley de firmas electronicas",
			"ley de mensajes de datos",
		},
		LastArticle: 70,
		// review: the ministry in charge of telecommunications applies it.
		Source: "https://www.telecomunicaciones.gob.ec/",
	},
	{
		Name: "Ley Notarial", FullName: "Ley Notarial", Kind: KindLaw,
		Aliases:     []string{"ley notarial", "ley de notarios"},
		LastArticle: 60,
		// review: notaries belong to the Función Judicial.
		Source: "https://www.funcionjudicial.gob.ec/",
	},
	{
		Name: "Código Orgánico del Ambiente", FullName: "Código Orgánico del Ambiente", Abbreviation: "COAM", Kind: KindCode,
		Aliases: []string{
			"codigo organico del ambiente", "codigo del ambiente", "codigo ambiental",
			"codigo organico ambiental",
		},
		Acronyms:    []string{"coam"},
		LastArticle: 340,
		// review: the ministry in charge of the environment publishes it.
		Source: "https://www.ambiente.gob.ec/",
	},
	{
		Name: "Ley de Recursos Hídricos", FullName: "Ley Orgánica de Recursos Hídricos, Usos y Aprovechamiento del Agua", Abbreviation: "LORHUAA", Kind: KindLaw,
		Aliases: []string{
			"ley organica de recursos hidricos", "ley de recursos hidricos",
			"ley organica de recursos hidricos usos y aprovechamiento del agua", "ley de aguas",
		},
		Acronyms:    []string{"lorhuaa"},
		LastArticle: 170,
		// review
		Source: "https://www.ambiente.gob.ec/",
	},
	{
		Name: "Ley Orgánica de Movilidad Humana", FullName: "Ley Orgánica de Movilidad Humana", Abbreviation: "LOMH", Kind: KindLaw,
		Aliases:     []string{"ley organica de movilidad humana", "ley de movilidad humana"},
		Acronyms:    []string{"lomh"},
		LastArticle: 180,
		// review: the Ministerio de Relaciones Exteriores y Movilidad Humana applies it.
		Source: "https://www.cancilleria.gob.ec/",
	},
	{
		Name: "Ley de Seguridad Social", FullName: "Ley de Seguridad Social", Kind: KindLaw,
		Aliases:     []string{"ley de seguridad social", "ley organica de seguridad social"},
		LastArticle: 320,
		// review: the Instituto Ecuatoriano de Seguridad Social publishes it.
		Source: "https://www.iess.gob.ec/",
	},
	// Treaties in force for Ecuador.
	{
		Name: "Convención Americana sobre Derechos Humanos", FullName: "Convención Americana sobre Derechos Humanos (Pacto de San José)", Abbreviation: "CADH", Kind: KindTreaty,
		Aliases: []string{
			"convencion americana sobre derechos humanos", "convencion americana de derechos humanos",
			"convencion americana", "pacto de san jose", "pacto de san jose de costa rica",
		},
		Acronyms:    []string{"cadh"},
		LastArticle: 85,
		// review: the Organization of American States keeps its treaties online.
		Source: "https://www.oas.org/",
	},
	{
		Name: "Pacto Internacional de Derechos Civiles y Políticos", FullName: "Pacto Internacional de Derechos Civiles y Políticos", Abbreviation: "PIDCP", Kind: KindTreaty,
		Aliases: []string{
			"pacto internacional de derechos civiles y politicos", "pacto de derechos civiles y politicos",
		},
		Acronyms:    []string{"pidcp"},
		LastArticle: 55,
		// review: the UN Office of the High Commissioner for Human Rights publishes it.
		Source: "https://www.ohchr.org/",
	},
	{
		Name: "Convención sobre los Derechos del Niño", FullName: "Convención sobre los Derechos del Niño", Abbreviation: "CDN", Kind: KindTreaty,
		Aliases: []string{
			"convencion sobre los derechos del nino", "convencion de los derechos del nino",
			"convencion internacional sobre los derechos del nino",
		},
		Acronyms:    []string{"cdn"},
		LastArticle: 55,
		// review
		Source: "https://www.ohchr.org/",
	},
	{
		Name: "Convención de Viena sobre el Derecho de los Tratados", FullName: "Convención de Viena sobre el Derecho de los Tratados", Abbreviation: "CVDT", Kind: KindTreaty,
		Aliases: []string{
			"convencion de viena sobre el derecho de los tratados", "convencion de viena de 1969",
			"convencion de viena",
		},
		Acronyms:    []string{"cvdt"},
		LastArticle: 86,
		// review: the UN Treaty Collection.
		Source: "https://treaties.un.org/",
	},
	{
		Name: "Convención sobre el Estatuto de los Refugiados", FullName: "Convención sobre el Estatuto de los Refugiados", Kind: KindTreaty,
		Aliases: []string{
			"convencion sobre el estatuto de los refugiados", "convencion de ginebra sobre el estatuto de los refugiados",
			"convencion de 1951 sobre el estatuto de los refugiados", "convencion de refugiados",
		},
		LastArticle: 46,
		// review: the UN refugee agency publishes it.
		Source: "https://www.acnur.org/",
	},
	{
		Name: "Código de Derecho Internacional Privado", FullName: "Código de Derecho Internacional Privado (Código Sánchez de Bustamante)", Kind: KindTreaty,
		Aliases: []string{
			"codigo de derecho internacional privado", "codigo sanchez de bustamante",
			"codigo de bustamante", "codigo bustamante",
		},
		LastArticle: 440,
		// review: the Organization of American States keeps its treaties online.
		Source: "https://www.oas.org/",
	},
}
