package httpapi

import (
	"github.com/utpl/simulador/backend/internal/domain"
)

type userDTO struct {
	ID          string `json:"id"`
	Mail        string `json:"mail"`
	DisplayName string `json:"displayName"`
	GivenName   string `json:"givenName"`
	Surname     string `json:"surname"`
	PhotoURL    string `json:"photoUrl"`
	Role        string `json:"role"`
}

func toUserDTO(u domain.User) *userDTO {
	return &userDTO{ID: u.ID, Mail: u.Mail, DisplayName: u.DisplayName, GivenName: u.GivenName,
		Surname: u.Surname, PhotoURL: u.PhotoURL, Role: string(u.Role)}
}

type accessDTO struct {
	Test  bool `json:"test"`
	Admin bool `json:"admin"`
}

type sessionDTO struct {
	User   *userDTO  `json:"user"`
	Access accessDTO `json:"access"`
}

type degreeDTO struct {
	ID     string `json:"id"`
	Nombre string `json:"nombre"`
}
