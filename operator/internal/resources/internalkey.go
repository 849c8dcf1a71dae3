package resources

import (
	"time"

	"siteplane.dev/services/pkg/contract"
)

// Rotation of the internal key (docs/security.md#rotating-the-internal-key).
const (
	// AnnotationRotateInternalKey on a Site asks for a rotation: a value the
	// operator has not handled yet rotates the key once.
	AnnotationRotateInternalKey = "siteplane.dev/rotate-internal-key"
	// AnnotationRotationHandled on the internal-key Secret records the last
	// request handled.
	AnnotationRotationHandled = "siteplane.dev/rotation-handled"
	// InternalKeyGrace is how long the previous key stays accepted: the
	// senders' propagation delay (identity.PropagationDelay, 3 minutes),
	// plus the longest an identity header lives (5 minutes), plus the
	// kubelet's delay in updating mounted Secrets, with room to spare.
	InternalKeyGrace = 15 * time.Minute
)

// InternalKeyPlan is what the internal-key Secret should hold now.
type InternalKeyPlan struct {
	// Data has every key the pods mount, empty values included, so that a
	// rotation changes file contents only, never the volume's items.
	Data map[string][]byte
	// Handled is the rotation request recorded on the Secret.
	Handled string
	// Generated, Rotated and PreviousExpired say what changed.
	Generated, Rotated, PreviousExpired bool
	// Deferred is set when a rotation was asked while the previous one is
	// still in its grace window: it happens at Next.
	Deferred bool
	// Next is when the plan changes by itself (the previous key expires).
	Next time.Time
}

// PlanInternalKey plans the internal-key Secret from its stored data (nil
// when it does not exist), the request handled last, the Site's rotation
// request, and the time. gen makes a new key.
func PlanInternalKey(stored map[string][]byte, handled, request string, now time.Time, gen func() string) InternalKeyPlan {
	cur := string(stored[contract.InternalKeySecretKey])
	prev := string(stored[contract.InternalKeyPreviousSecretKey])
	var rotatedAt time.Time
	if v := string(stored[contract.InternalKeyRotatedAtSecretKey]); v != "" {
		rotatedAt, _ = time.Parse(time.RFC3339, v)
	}
	plan := InternalKeyPlan{Handled: handled}
	if prev != "" && (rotatedAt.IsZero() || !now.Before(rotatedAt.Add(InternalKeyGrace))) {
		prev, plan.PreviousExpired = "", true
	}
	switch {
	case cur == "":
		cur, plan.Generated = gen(), true
		// A request made before the key existed is satisfied by it.
		plan.Handled = request
	case request != "" && request != handled && prev != "":
		// One rotation at a time: the senders may still sign with the
		// previous key, which must stay accepted until its grace ends.
		plan.Deferred = true
	case request != "" && request != handled:
		prev, cur, rotatedAt = cur, gen(), now.UTC().Truncate(time.Second)
		plan.Rotated, plan.Handled = true, request
	}
	at := ""
	if prev != "" {
		at = rotatedAt.UTC().Format(time.RFC3339)
		plan.Next = rotatedAt.Add(InternalKeyGrace)
	}
	plan.Data = map[string][]byte{
		contract.InternalKeySecretKey:          []byte(cur),
		contract.InternalKeyPreviousSecretKey:  []byte(prev),
		contract.InternalKeyRotatedAtSecretKey: []byte(at),
	}
	return plan
}
