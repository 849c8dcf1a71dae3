package contract

import "time"

// Bounds of EnvInternalKeyPropagationDelay (the services refuse, and the
// operator's --internal-key-propagation-delay refuses, anything outside):
// not below the services' 10-second re-read of the key files, and well
// inside the operator's 15-minute grace window for the previous key, which
// must also cover a signed header's 5-minute lifetime after the switch.
const (
	DefaultInternalKeyPropagationDelay = 3 * time.Minute
	MinInternalKeyPropagationDelay     = 10 * time.Second
	MaxInternalKeyPropagationDelay     = 5 * time.Minute
)
