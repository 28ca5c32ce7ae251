package httpapi

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// ltiPage writes one of the LTI pages. Its Content-Security-Policy allows
// only its own inline style and script (by nonce) and forms to this site
// and formTargets; framable pages may be framed by the registered
// platforms' origins (frame-ancestors) — plus, after a valid launch, the
// origins its signed token names (extraAncestors) — and by nobody else,
// every other page by nobody. X-Frame-Options cannot name several origins,
// so a framable page goes without it and relies on frame-ancestors.
func (a *api) ltiPage(c echo.Context, status int, framable bool, formTargets []string, t *template.Template, data map[string]any, extraAncestors ...string) error {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	nonce := base64.RawStdEncoding.EncodeToString(b)
	ancestors := "'none'"
	if framable {
		origins, err := a.lti.FrameAncestors(c.Request().Context())
		if err != nil {
			a.log.Warn("lti frame ancestors unavailable", "err", err)
		}
		for _, o := range extraAncestors {
			if o != "" && !slices.Contains(origins, o) {
				origins = append(origins, o)
			}
		}
		if len(origins) > 0 {
			ancestors = strings.Join(origins, " ")
		}
	}
	forms := append([]string{"'self'"}, formTargets...)
	h := c.Response().Header()
	h.Set("Content-Security-Policy", strings.Join([]string{
		"default-src 'none'",
		"style-src 'nonce-" + nonce + "'",
		"script-src 'nonce-" + nonce + "'",
		"img-src 'self' data:",
		"form-action " + strings.Join(forms, " "),
		"base-uri 'none'",
		"frame-ancestors " + ancestors,
	}, "; "))
	if framable {
		h.Del("X-Frame-Options")
	}
	h.Set("Cache-Control", "no-store")
	if data == nil {
		data = map[string]any{}
	}
	data["Nonce"] = nonce
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// ltiLayout is the frame of every LTI page: plain HTML that works without
// the app (no session in the course's frame), in the site's colours.
const ltiLayout = `{{define "head"}}<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Simulador del Examen Complexivo Oral</title>
<style nonce="{{.Nonce}}">
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e293b;background:#f8fafc;line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:1.5rem}
h1{color:#1e3a8a;font-size:1.5rem;margin:0 0 .75rem}
.card{background:#fff;border:1px solid #cbd5e1;border-radius:.75rem;padding:1.25rem;margin-top:1rem}
button,.button{display:inline-block;background:#1e40af;color:#fff;border:0;border-radius:.5rem;padding:.7rem 1.2rem;font-size:1rem;font-weight:600;cursor:pointer}
button:focus-visible{outline:3px solid #eab308;outline-offset:2px}
label{font-weight:600;display:block;margin-top:1rem}
select,input[type=text]{display:block;width:100%;box-sizing:border-box;margin-top:.25rem;padding:.5rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem}
fieldset{border:1px solid #cbd5e1;border-radius:.5rem;margin-top:1rem}
fieldset label{font-weight:400;display:flex;gap:.5rem;align-items:flex-start;margin:.4rem 0}
.hint{color:#475569;font-size:.9rem;margin:.25rem 0 0}
.error{border-color:#dc2626}
.actions{margin-top:1.25rem}
</style></head><body><main>{{end}}
{{define "foot"}}</main></body></html>{{end}}`

// ltiFuncs: merge gives the layout the page's title and nonce.
var ltiFuncs = template.FuncMap{"merge": func(title string, d map[string]any) map[string]any {
	return map[string]any{"Title": title, "Nonce": d["Nonce"]}
}}

func ltiTemplate(name, body string) *template.Template {
	return template.Must(template.Must(template.New(name).Funcs(ltiFuncs).Parse(ltiLayout)).Parse(body))
}

var errorTemplate = ltiTemplate("error", `{{template "head" (merge "No se pudo abrir el simulador" .)}}
<h1>No se pudo abrir el simulador</h1>
<div class="card error" role="alert"><p>{{.Message}}</p></div>
{{template "foot"}}`)

var handoffTemplate = ltiTemplate("handoff", `{{template "head" (merge "Abrir el simulador" .)}}
<h1>Hola{{if .Name}}, {{.Name}}{{end}}</h1>
<div class="card">
<p>El simulador se abre en una pestaña nueva: dentro del curso el navegador no permite mantener su sesión ni usar el micrófono con seguridad.</p>
<form id="abrir" method="post" action="/lti/continue" target="_blank">
<input type="hidden" name="code" value="{{.Code}}">
<button type="submit">Abrir el simulador</button>
</form>
<p class="hint">El botón vale {{.Seconds}} segundos y una sola vez. Si caducó, vuelva a abrir la actividad desde el curso.</p>
<p id="abierto" class="hint" hidden>El simulador se abrió en una pestaña nueva. Puede cerrar esta ventana o volver al curso.</p>
</div>
<script nonce="{{.Nonce}}">
document.getElementById('abrir').addEventListener('submit', function () {
  var f = this
  setTimeout(function () { f.hidden = true; document.getElementById('abierto').hidden = false }, 0)
})
</script>
{{template "foot"}}`)

var pickerTemplate = ltiTemplate("picker", `{{template "head" (merge "Agregar el simulador" .)}}
<h1>Agregar el simulador{{if .Course}} a «{{.Course}}»{{end}}</h1>
<form method="post" action="/lti/deep-link" class="card">
<input type="hidden" name="token" value="{{.Token}}">
<fieldset><legend>¿Qué abre el enlace?</legend>
<label><input type="radio" name="modo" value="entrenamiento" checked> <span><strong>Entrenamiento</strong>: con la guía de estructura; se puede pausar y elegir el área.</span></label>
<label><input type="radio" name="modo" value="simulacro"> <span><strong>Simulacro</strong>: una sola toma, sin pausas, la secuencia real.</span></label>
</fieldset>
<label for="area">Área del derecho (solo Entrenamiento)</label>
<select id="area" name="area"><option value="">Cualquier área</option>
{{range .Degrees}}<optgroup label="{{.Name}}">{{range .Areas}}<option value="{{.}}">{{.}}</option>{{end}}</optgroup>{{end}}
</select>
<label for="dificultad">Dificultad (solo Entrenamiento)</label>
<select id="dificultad" name="dificultad"><option value="">Cualquiera</option>
{{range .Difficulties}}<option value="{{.Value}}">{{.Label}}</option>{{end}}
</select>
{{if gt (len .Degrees) 1}}<label for="carrera">Carrera</label>
<select id="carrera" name="carrera"><option value="">La del grupo del estudiante</option>
{{range .Degrees}}<option value="{{.Name}}">{{.Name}}</option>{{end}}</select>{{end}}
<label for="titulo">Título del enlace en el curso (opcional)</label>
<input id="titulo" name="titulo" type="text" maxlength="200" placeholder="Simulador oral: Entrenamiento">
<p class="actions"><button type="submit">Agregar al curso</button></p>
</form>
{{template "foot"}}`)

var autoPostTemplate = ltiTemplate("autopost", `{{template "head" (merge "Volviendo al curso" .)}}
<h1>Volviendo al curso…</h1>
<form id="f" method="post" action="{{.Action}}" class="card">
<input type="hidden" name="JWT" value="{{.JWT}}">
<p>Si no vuelve solo, pulse el botón.</p>
<button type="submit">Volver al curso</button>
</form>
<script nonce="{{.Nonce}}">document.getElementById('f').submit()</script>
{{template "foot"}}`)
