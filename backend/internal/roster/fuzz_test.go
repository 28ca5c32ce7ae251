package roster

import (
	"bytes"
	"strings"
	"testing"
)

func FuzzParseCSV(f *testing.F) {
	for _, seed := range []string{
		"",
		"correo;nombre;carrera;departamento;facultad;modalidad\nana@utpl.edu.ec;Ana;Derecho;;;\n",
		"correo;nombre;carrera\nana@utpl.edu.ec;Ana;Derecho\n",
		"\uFEFFEmail,Degree,Name,Department,Faculty,Modality\r\n\"ana@utpl.edu.ec\",\"Derecho, \"\"penal\"\"\"\r\n\r\nluis@utpl.edu.ec,Derecho\r\n",
		"correo\tcarrera\tnombre\tdepartamento\tfacultad\tmodalidad\nana@utpl.edu.ec\t\nana@utpl.edu.ec\tDerecho\n",
		"correo;carrera;correo\n;;\n\"a\nb\";x\n",
		"Correo Electr\xf3nico;Carrera\nana@utpl.edu.ec;Administraci\xf3n\n",
		"\xff\xfec\x00o\x00r\x00r\x00e\x00o\x00",
		"correo,carrera\nana\"@x.ec,Derecho\n\"unclosed\n",
		"PK\x03\x04",
		"SEP=\t\ncorreo\tcarrera\n",
		strings.Repeat("correo;", 25) + "carrera\n",
		roster(30),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseCSV(bytes.NewReader(data))
		checkResult(t, rows, err)
	})
}

// FuzzParseXLSX mutates whole files. The main seed is stored uncompressed and
// without CRCs, so that flipped bytes reach the XML inside rather than only
// archive/zip's checks.
func FuzzParseXLSX(f *testing.F) {
	f.Add(minimalXLSX(testSheetXML, testSSTXML))
	f.Add(buildXLSX(f, sheet{"Hoja1", [][]any{headerRow, {"ana@utpl.edu.ec", "Ana", "Derecho"}}}))
	f.Add([]byte{})
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	f.Fuzz(func(t *testing.T, data []byte) {
		// parseXLSX, not ParseXLSX: the recover that protects production
		// must not hide a panic from the fuzzer.
		rows, err := parseXLSX(data, nil)
		checkResult(t, rows, err)
	})
}

// FuzzParseXLSXSheet mutates the worksheet and shared strings of an
// otherwise valid workbook, where excelize turns XML into cell values.
func FuzzParseXLSXSheet(f *testing.F) {
	f.Add([]byte(testSheetXML), []byte(testSSTXML))
	f.Add([]byte(`<worksheet><sheetData><row r="9"><c r="XFD9" t="inlineStr"><is><t>correo</t></is></c><c t="s"><v>1</v></c></row><row><c t="inlineStr"><is><t>a@b.ec</t></is></c><c t="str"><f>1+1</f><v>Derecho</v></c></row></sheetData></worksheet>`),
		[]byte(`<sst><si><t>correo</t></si><si><r><t>carr</t></r><r><t>era</t></r></si></sst>`))
	f.Add([]byte(`<worksheet><sheetData><row><c t="s"><v>99</v></c><c t="n" s="3"><v>1e308</v></c><c t="d"><v>x</v></c><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c></row></sheetData></worksheet>`), []byte{})
	f.Fuzz(func(t *testing.T, sheetXML, sstXML []byte) {
		rows, err := parseXLSX(minimalXLSX(string(sheetXML), string(sstXML)), nil)
		checkResult(t, rows, err)
	})
}
