package sheetcsv

// EscapeFormula keeps a cell from being run as a formula when a CSV file is
// opened in a spreadsheet (CSV injection, OWASP): a cell starting with
// = + - @, a tab or a carriage return gets a leading apostrophe, which the
// spreadsheet shows as text. A cell that already starts with an apostrophe
// before such a character gets one more, so UnescapeFormula can always give
// back the original text: an export imports back exactly.
func EscapeFormula(cell string) string {
	if needsEscape(cell) {
		return "'" + cell
	}
	return cell
}

// UnescapeFormula undoes EscapeFormula on a cell read back from a file.
func UnescapeFormula(cell string) string {
	if len(cell) > 1 && cell[0] == '\'' && needsEscape(cell[1:]) {
		return cell[1:]
	}
	return cell
}

func needsEscape(cell string) bool {
	for i := 0; i < len(cell); i++ {
		switch cell[i] {
		case '=', '+', '-', '@', '\t', '\r':
			return true
		case '\'':
			continue // an escaped cell: escape it once more
		}
		return false
	}
	return false
}
