// Package measures computes the automatic evidence shown beside the rubric
// of an oral exam rehearsal (examen complexivo): pace, fillers, protocol and
// structure markers, legal bases cited and case key points covered. It is
// pure: no I/O, no state, safe for concurrent use. These measures are
// evidence for the student and the tutor, never a grade by themselves, so
// every heuristic here prefers precision to recall: a false accusation
// ("you said 'este' 12 times", "you cited art. 2008") costs more trust than
// a miss.
//
// All matching is on a folded copy of the transcript (lowercase, accents
// stripped), so "Constitución", "CONSTITUCION" and "constitucion" — the
// last is what many speech recognizers produce — are the same word.
//
// # Citations
//
// ExtractCitations finds article groups and norm mentions, then binds each
// group to a norm.
//
// An article group is "artículo"/"art."/"arts." followed by one or more
// numbers in digits ("76", "195.1", "76.7.l", "1.459") or Spanish words
// ("setenta y seis", "mil cuatrocientos cincuenta y nueve", "primero"),
// with sub-divisions that are skipped ("numeral 7 literal l", "inciso
// segundo", "195 punto 1"), lists ("18 y 30", "1459, 1740 y 1698", and
// recognizer output without commas: "527 528 y 529", "setenta y cinco
// setenta y seis y ochenta y dos", where a smaller number said right after
// is a sub-division read without its dot: "76 7") and ranges ("39 al 42",
// "39 a 42", "del 39 al 42", "desde el 39 hasta el 42", "39-42"; a range
// wider than 30 articles contributes only its ends). A bare number is a
// group only when a norm follows at once ("el 88 de la Carta Magna", "y 76
// del COIP"; never from the middle of a spelled number, as "seis" in
// "setenta y seis"), or when it continues a list after the norm: "el 42 del
// Código Civil y el 43", "...de la Constitución y setenta y siete", "y en
// el 105" (without "el", only before a verb or the end of the clause, so
// "y 2 hijos" is not one), or, said with "el", a few articles further in
// the same sentence after a predicate with the verb left implicit: "el
// artículo 2410 del mismo código regula la prescripción extraordinaria y
// el 2411 fija el tiempo". A continuation takes the norm of the group it
// continues. Years ("y en el 2008") and dates ("y el 30 de marzo") do not
// continue a list. Amounts, durations, percentages,
// dates and case or ruling numbers never form groups: a number followed by
// a unit ("días", "años", "%", "por ciento", "dólares"), or written with
// dashes or slashes ("1158-17-EP/21"), is not an article.
//
// Binding rules, applied in order to each group:
//
//  1. Right after: a norm named within a few connector tokens after the
//     group binds it ("artículo 76 de la Constitución", "art. 30, del COIP",
//     "artículo 140 previsto en el COIP"), but not after a determiner said
//     right after the number ("artículo 66 numeral 1 el COIP en el
//     artículo 144...": a sentence boundary a recognizer dropped). An
//     explicit back-reference there
//     ("del mismo código", "de la misma ley", "ibídem", "del citado cuerpo
//     legal") binds to the last norm named before it; a bare "del código"
//     or "de la ley" binds to the last named norm only if it is a code or a
//     law respectively. The ambiguous acronym "CC" counts only here.
//  2. Possessive: "en su artículo 30", "sus artículos" bind to the last
//     norm named (an explicit back-reference by pronoun).
//  3. Same sentence before: the last norm named earlier in the same
//     sentence, at most 40 words back, binds ("el COIP, en el artículo 522,
//     ..."; "según el Código Orgánico Integral Penal en su artículo 30").
//     Sentences end at . ? ! and blank lines; the 40-word cap stands in for
//     sentences in unpunctuated recognizer output. A single line break
//     (between the segments of a live transcript) is not even a clause
//     boundary for citations: a speaker pauses mid-phrase as often as
//     between phrases, so the citation grammar reads across it ("según el
//     artículo setenta y seis" / "numeral siete de la constitución").
//     Inference stops at an article left unattributed: a norm noted
//     before it does not bind a later article of the same sentence ("la
//     Constitución protege la vida en el artículo 66 el artículo 144
//     sanciona el homicidio y el artículo 140 el asesinato": 144 and 140
//     stay unattributed). Unpunctuated speech also loses clause boundaries, so
//     an article said as the subject of its own clause, "el artículo N"
//     after anything but a preposition, "que" or a verb of citing
//     ("establece el artículo 76"), does not inherit a norm that was named
//     on its own: in "la Constitución garantiza el debido proceso y el
//     artículo 140 tipifica el asesinato", 140 is unattributed, while "la
//     Constitución en el artículo 76", "el Código Civil: el artículo 715"
//     and "como establece el artículo 76" bind. After an article attached
//     to a norm, an enumeration goes on after a conjunction or punctuation
//     ("el artículo 43 protege a la madre, y el artículo 332 prohíbe..."),
//     but not after an ordinary word ("protege la vida en el artículo 66 el
//     artículo 144 sanciona..."). On the labelled set this boundary trades
//     one true citation (the Constitution's article 43 introduced after
//     "la Constitución reconoce el trabajo ... y") for one false one
//     (the Constitution's article 140 above).
//  4. Continuation: a sentence that opens with an additive connector
//     ("Además", "Asimismo", "También", "Y", "Igualmente", "Del mismo
//     modo", "En concordancia") continues the enumeration before it: the
//     last norm named or attached in the same paragraph, at most 60 words
//     back, binds ("La normativa aplicable es el Código Civil. Además, los
//     artículos 1698 y 1704 ..."). This narrow extension of the rule of
//     thumb (rules 1–3) lifts recall on the labelled set from 0.96 to 0.98
//     with no loss of precision. A plain carry-over to the previous
//     sentence's norm, tried and rejected, reached recall 0.99 but
//     precision 0.98: it attributed "El artículo 144 sanciona el
//     homicidio" to the Constitution named the sentence before.
//
// Rules 2–4 infer the norm, so they never attach a number the norm cannot
// have: past its last article (about 450 for the Constitution, 210 for the
// LOGJCC) the article stays unattributed. Said explicitly ("artículo 534 de
// la LOGJCC"), it is reported as said.
//  5. Otherwise the article is unattributed: its number goes to
//     Unattributed, unless the same number is cited with a norm elsewhere
//     in the talk (then it is a repetition, not a missing norm).
//
// An article bound to a norm outside the catalogue ("artículo 5 del Código
// de Policía", "el Reglamento General, en su artículo 146") is neither
// cited nor unattributed. The norms, their aliases and acronyms come from
// the shared catalogue, package norms; CanonicalNorm maps any alias to the
// canonical name. An acronym is also recognised spelled letter by letter
// ("c o i p", "c.o.i.p.") or split by a recognizer ("co gep", "lo sep",
// "c o gep"), unless every piece longer than a letter is a common word
// ("lo es" is not the LOES, "con a" not the CONA).
//
// An unnumbered article (artículo innumerado) is cited by the article it
// follows: "artículo innumerado dos a continuación del artículo ciento
// veinticinco", "el innumerado 2 después del 125"; the citation is Article
// 125, Innumerado 2 (written 125+2 in a case, see norms.Article). Said
// without the article it follows ("el artículo innumerado 2 dice") it
// names no article and is not reported.
//
// # Key points
//
// A case key point is covered when at least 60 % of its content stems (and
// at least one) occur within a window of 40 consecutive words of the
// transcript. Content stems come from folding, dropping Spanish stopwords,
// a light suffix stripper (-ción, -mente, -idad, plurals, participles,
// infinitives, also with a pronoun as in "defenderse", and the verb forms
// facts are told with: "violaron", "defendieron", "negaban", "vulneran")
// and a small table of legal synonyms ("detención" ~
// "aprehensión" ~ "privación", "indemnización" ~ "reparación", "plazo" ~
// "término"); spelled numbers become digits ("veinticuatro" ~ "24").
//
// # Protocol and structure
//
// Greeting: a greeting phrase ("buenos días", "señores miembros del
// tribunal", "distinguido tribunal", "con su venia", "saludo") in the first
// 60 words. Closing: a closing phrase ("gracias por su atención", "he
// concluido", "quedo atenta a sus preguntas", "es todo cuanto...", "así
// concluyo") or a "gracias" not followed by "a" in the last 60 words.
// Structure markers are signposting phrases anywhere in the talk, reported
// in the expected order: introducción, hechos, problema, normas, análisis,
// conclusión.
//
// # Fillers
//
// Counted by canonical kind: "eh" (eh, ehh, em, ehm, mmm, hmm), "o sea"
// (not "ya sea ... o sea ..."), "digamos" (always), and the ambiguous ones
// only in filler position:
//
//   - "este": followed by a pause (comma, ellipsis, dash) or another filler,
//     and not after a word that makes it a pronoun ("como este,", "es
//     este"); never "este caso", "este tribunal".
//   - "bueno": at the start of a sentence, after another filler, or between
//     commas; never "visto bueno", "es bueno".
//   - "¿no?": a "no" closed by "?" and opened by "¿" or a comma, or a "no"
//     that ends a segment of a live transcript after a statement of three
//     words or more ("es un derecho fundamental no"), unless the word
//     before makes it an answer ("dijo que no", "la respuesta es no").
//   - "pues": at the start of a sentence (not "pues bien") or next to
//     another filler; never the causal ", pues no se cumplen".
//   - "tipo": before "que", a pause or a filler, and not after a determiner
//     ("el tipo penal", "el tipo que describe").
//
// "entonces" is not counted: as a filler it cannot be told from the
// connector by text alone. A live recognizer's segments carry no
// punctuation; they are joined one per line (JoinSegments), and for fillers
// a line break counts as a clause boundary: a "pues" or "bueno" opening a
// segment is at the start of a clause. (Citations read across it.)
//
// # Rates
//
// Words are tokens with a letter or a digit. Per-minute rates divide by
// DurationMs (or, when it is 0, by the span of the timed segments); with no
// duration they are 0 and PaceBand is "". Pace bands: "lento" under 100
// words per minute, "adecuado" 100–165, "rápido" over 165.
package measures
