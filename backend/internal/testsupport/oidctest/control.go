package oidctest

import (
	"encoding/json"
	"net/http"
)

// registerControl adds the test-control API (Options.Control), for a test
// runner in another process:
//
//	POST   /_control/next      SignIn JSON: the next browser sign-in (used once)
//	DELETE /_control/next      forget it (the default user signs in)
//	POST   /_control/id-token  SignIn JSON: mint an ID token, answers {"idToken": "..."}
//	GET    /_control/info      {"url", "authority", "issuer", "tenantId", "clientId"}
func (i *Issuer) registerControl(mux *http.ServeMux) {
	mux.HandleFunc("POST /_control/next", func(w http.ResponseWriter, r *http.Request) {
		s, ok := decodeSignIn(w, r)
		if !ok {
			return
		}
		i.SetNext(s)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("DELETE /_control/next", func(w http.ResponseWriter, r *http.Request) {
		i.ClearNext()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_control/id-token", func(w http.ResponseWriter, r *http.Request) {
		s, ok := decodeSignIn(w, r)
		if !ok {
			return
		}
		tok, err := i.IDToken(s)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"idToken": tok})
	})
	mux.HandleFunc("GET /_control/info", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, i.Info())
	})
}

// Info describes a running issuer (the JSON the test binary prints).
type Info struct {
	URL       string `json:"url"`
	Authority string `json:"authority"`
	Issuer    string `json:"issuer"`
	TenantID  string `json:"tenantId"`
	ClientID  string `json:"clientId"`
}

// Info returns the issuer's addresses and identifiers.
func (i *Issuer) Info() Info {
	return Info{URL: i.URL(), Authority: i.Authority(), Issuer: i.Issuer(), TenantID: i.TenantID(), ClientID: i.ClientID()}
}

func decodeSignIn(w http.ResponseWriter, r *http.Request) (SignIn, bool) {
	var s SignIn
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields() // a misspelt fault must not pass silently
	if err := dec.Decode(&s); err != nil {
		http.Error(w, "bad SignIn JSON: "+err.Error(), http.StatusBadRequest)
		return s, false
	}
	return s, true
}
