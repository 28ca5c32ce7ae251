// Package lti makes the simulator an LTI 1.3 tool (Core, Deep Linking 2.0,
// Names and Role Provisioning Services 2.0, Assignment and Grade Services
// 2.0): platforms registered from the terminal launch it from a course,
// the course's roster loads a tutor's group, and Simulacro grades go to the
// course's gradebook. docs/lti.md describes the flows and every rule.
//
// JOSE (signatures, keys, JWTs) is go-jose v4 throughout.
package lti

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Message types, the LTI version and the claims this tool reads or writes.
const (
	MessageResourceLink         = "LtiResourceLinkRequest"
	MessageDeepLinkingRequest   = "LtiDeepLinkingRequest"
	MessageDeepLinkingResponse  = "LtiDeepLinkingResponse"
	Version                     = "1.3.0"
	claimMessageType            = "https://purl.imsglobal.org/spec/lti/claim/message_type"
	claimVersion                = "https://purl.imsglobal.org/spec/lti/claim/version"
	claimDeploymentID           = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
	claimTargetLinkURI          = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"
	claimResourceLink           = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
	claimRoles                  = "https://purl.imsglobal.org/spec/lti/claim/roles"
	claimContext                = "https://purl.imsglobal.org/spec/lti/claim/context"
	claimCustom                 = "https://purl.imsglobal.org/spec/lti/claim/custom"
	claimLaunchPresentation     = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
	claimNamesRoles             = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
	claimGradeEndpoint          = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
	claimDeepLinkingSettings    = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
	claimDeepLinkingContent     = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
	claimDeepLinkingData        = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
	ScopeMemberships            = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	ScopeLineItem               = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeLineItemReadonly       = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
	ScopeResultReadonly         = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
	ScopeScore                  = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	roleLearner                 = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
	roleInstructor              = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
	roleTeachingAssistant       = "http://purl.imsglobal.org/vocab/lis/v2/membership#TeachingAssistant"
	roleInstructorSubRolePrefix = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#"
	roleLearnerSubRolePrefix    = "http://purl.imsglobal.org/vocab/lis/v2/membership/Learner#"
	mediaMembership             = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
	mediaLineItems              = "application/vnd.ims.lis.v2.lineitemcontainer+json"
	mediaLineItem               = "application/vnd.ims.lis.v2.lineitem+json"
	mediaScore                  = "application/vnd.ims.lis.v1.score+json"
)

// ToolScopes are the service scopes the tool asks a platform for (the
// developer key's scopes in Canvas).
var ToolScopes = []string{ScopeLineItem, ScopeLineItemReadonly, ScopeResultReadonly, ScopeScore, ScopeMemberships}

// CheckPlatformURL accepts an https URL, or an http URL on a loopback
// address (tests and local trials): a platform's endpoints carry signed
// tokens and grades, never in clear over a network.
func CheckPlatformURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("%q is not an absolute URL", raw)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("%q must use https (http is accepted only on a loopback address such as 127.0.0.1)", raw)
	}
	return fmt.Errorf("%q must be an https URL", raw)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Origin is scheme://host[:port] of an absolute URL; "" when raw is not one.
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}
