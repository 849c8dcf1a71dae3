package rest

// Object is a JSON object whose members keep their order, so responses list
// fields in the order WordPress emits them. Build one with Set or With:
//
//	o := rest.Object{}.With("id", 5).With("title", rest.Object{}.With("rendered", "Hi"))
type Object []Member

// Member is one name/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// With returns o with key set to v: an existing member is replaced in place,
// otherwise the member is appended.
func (o Object) With(key string, v any) Object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{key, v})
}

// Set sets key to v in place (see With).
func (o *Object) Set(key string, v any) { *o = o.With(key, v) }

// Get returns the value of key.
func (o Object) Get(key string) (any, bool) {
	for i := range o {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// Delete returns o without key.
func (o Object) Delete(key string) Object {
	for i := range o {
		if o[i].Key == key {
			return append(o[:i:i], o[i+1:]...)
		}
	}
	return o
}

// MarshalJSON encodes the object with WordPress's (PHP's) JSON escaping.
func (o Object) MarshalJSON() ([]byte, error) { return appendJSON(o, false), nil }
