package identity

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Role is a WordPress role name.
type Role string

// The WordPress core roles.
const (
	Administrator Role = "administrator"
	Editor        Role = "editor"
	Author        Role = "author"
	Contributor   Role = "contributor"
	Subscriber    Role = "subscriber"
)

// Roles lists the roles from most to least privileged.
var Roles = []Role{Administrator, Editor, Author, Contributor, Subscriber}

// Valid reports whether r is a known role.
func (r Role) Valid() bool {
	_, ok := capabilities[r]
	return ok
}

// Can reports whether the role grants the primitive capability.
func (r Role) Can(capability string) bool {
	return capabilities[r][capability]
}

// capabilitiesJSON is the one table of the roles' primitive capabilities,
// as WordPress's populate_roles installs them (level_0 … level_10
// included), in WordPress's order. Every service checks capabilities
// against it (Role.Can) and the users routes show it (Role.Capabilities).
//
//go:embed capabilities.json
var capabilitiesJSON []byte

var (
	capabilities = map[Role]map[string]bool{}
	ordered      = map[Role][]string{}
)

func init() {
	var table []struct {
		Role         Role     `json:"role"`
		Capabilities []string `json:"capabilities"`
	}
	if err := json.Unmarshal(capabilitiesJSON, &table); err != nil {
		panic(fmt.Sprintf("identity: capabilities.json: %v", err))
	}
	for _, r := range table {
		set := make(map[string]bool, len(r.Capabilities))
		for _, c := range r.Capabilities {
			set[c] = true
		}
		capabilities[r.Role], ordered[r.Role] = set, r.Capabilities
	}
}

// Capabilities is the role's primitive capabilities in WordPress's order
// (a copy).
func (r Role) Capabilities() []string { return append([]string(nil), ordered[r]...) }
