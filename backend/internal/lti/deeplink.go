package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Difficulties a deep link may ask for (the case bank's levels).
var Difficulties = []string{"basico", "intermedio", "avanzado"}

type deepLinkData struct {
	Platform   string `json:"p"`
	Deployment string `json:"d"`
	ReturnURL  string `json:"r"`
	Data       string `json:"x,omitempty"`
	Title      string `json:"t,omitempty"`
}

// StartDeepLink remembers a deep linking request while the instructor
// chooses what the link opens, and returns the token the choice must
// carry (the course's frame has no session of this site).
func (s *Service) StartDeepLink(ctx context.Context, l *Launch) (string, error) {
	token := randomToken()
	data, _ := json.Marshal(deepLinkData{Platform: l.Platform.ID, Deployment: l.DeploymentID, ReturnURL: l.DeepLinking.ReturnURL,
		Data: l.DeepLinking.Data, Title: l.DeepLinking.Title})
	err := s.store.PutLTIOnce(ctx, domain.LTIOnce{Kind: onceDeepLink, Key: hashKey(token), Data: string(data),
		ExpiresAt: s.now().UTC().Add(deepLinkLifetime)})
	return token, err
}

// DeepLinkChoice is what the instructor chose in the picker.
type DeepLinkChoice struct {
	Mode       string // entrenamiento | simulacro
	Area       string // entrenamiento only; "" for any
	Difficulty string // entrenamiento only; "" for any
	Degree     string // a degree's name; "" for the student's own
	Title      string // the link's title in the course; "" for a default
}

// DeepLinkResponse is the signed answer and where the browser posts it.
type DeepLinkResponse struct {
	ReturnURL string
	JWT       string
}

const maxChoiceLength = 200

// FinishDeepLink turns the choice into a signed LtiDeepLinkingResponse
// with one ltiResourceLink whose custom parameters say what it opens, and
// the platform's data echoed.
func (s *Service) FinishDeepLink(ctx context.Context, token string, ch DeepLinkChoice, toolURL string) (DeepLinkResponse, error) {
	custom := map[string]string{}
	switch domain.Mode(ch.Mode) {
	case domain.ModeTraining:
		if ch.Difficulty != "" && !contains(Difficulties, ch.Difficulty) {
			return DeepLinkResponse{}, refuse("dificultad", fmt.Sprintf("unknown difficulty %q", ch.Difficulty), "Elija una dificultad de la lista.", http.StatusBadRequest)
		}
		custom[CustomArea], custom[CustomDifficulty] = strings.TrimSpace(ch.Area), ch.Difficulty
	case domain.ModeMock:
	default:
		return DeepLinkResponse{}, refuse("modo", fmt.Sprintf("unknown mode %q", ch.Mode), "Elija Entrenamiento o Simulacro.", http.StatusBadRequest)
	}
	custom[CustomMode], custom[CustomDegree] = ch.Mode, strings.TrimSpace(ch.Degree)
	title := strings.Join(strings.Fields(ch.Title), " ")
	for _, v := range []string{title, custom[CustomArea], custom[CustomDegree]} {
		if utf8.RuneCountInString(v) > maxChoiceLength {
			return DeepLinkResponse{}, refuse("title", "a field is too long", fmt.Sprintf("Cada campo admite hasta %d caracteres.", maxChoiceLength), http.StatusBadRequest)
		}
	}
	for k, v := range custom {
		if v == "" {
			delete(custom, k)
		}
	}
	if title == "" {
		title = "Simulador oral: " + map[string]string{"entrenamiento": "Entrenamiento", "simulacro": "Simulacro"}[ch.Mode]
		if a := custom[CustomArea]; a != "" {
			title += " · " + a
		}
	}

	rec, err := s.store.TakeLTIOnce(ctx, onceDeepLink, hashKey(token), s.now().UTC())
	if errors.Is(err, domain.ErrNotFound) {
		return DeepLinkResponse{}, refuse("deep_link", "unknown, used or expired deep linking token", msgExpired, http.StatusBadRequest)
	}
	if err != nil {
		return DeepLinkResponse{}, err
	}
	var d deepLinkData
	if err := json.Unmarshal([]byte(rec.Data), &d); err != nil {
		return DeepLinkResponse{}, fmt.Errorf("deep link record: %w", err)
	}
	p, err := s.store.GetLTIPlatform(ctx, d.Platform)
	if errors.Is(err, domain.ErrNotFound) {
		return DeepLinkResponse{}, refuse("iss", "the platform of this deep link was removed", msgUnknownPlatform, http.StatusForbidden)
	}
	if err != nil {
		return DeepLinkResponse{}, err
	}
	now := s.now().UTC()
	claims := map[string]any{
		"iss": p.ClientID, "aud": p.Issuer, "iat": now.Unix(), "exp": now.Add(tokenLifetime).Unix(), "nonce": randomToken(),
		claimMessageType: MessageDeepLinkingResponse, claimVersion: Version, claimDeploymentID: d.Deployment,
		claimDeepLinkingContent: []map[string]any{{
			"type": "ltiResourceLink", "title": title, "url": toolURL + LaunchPath, "custom": custom,
		}},
	}
	if d.Data != "" {
		claims[claimDeepLinkingData] = d.Data
	}
	signed, err := s.keys.Sign(ctx, claims)
	if err != nil {
		return DeepLinkResponse{}, err
	}
	return DeepLinkResponse{ReturnURL: d.ReturnURL, JWT: signed}, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
