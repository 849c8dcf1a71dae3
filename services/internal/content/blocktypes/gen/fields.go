package main

import "encoding/json"

// blockType is one block.json as WordPress's block-types controller
// answers it (prepare_item_for_response's field order; absent fields take
// the schema's default). _links are the route's, not the data's.
func blockType(m object, dynamic bool) object {
	get := func(key string, def any) any {
		if v, ok := m.get(key); ok {
			return v
		}
		return def
	}
	handles := func(key string) []any {
		switch v := get(key, nil).(type) {
		case string:
			return []any{v}
		case []any:
			return v
		}
		return []any{}
	}
	first := func(key string) any {
		if h := handles(key); len(h) > 0 {
			return h[0]
		}
		return nil
	}
	return object{
		{"attributes", attributes(m)},
		{"is_dynamic", dynamic},
		{"api_version", get("apiVersion", json.Number("1"))},
		{"name", get("name", "")},
		{"title", get("title", "")},
		{"description", get("description", "")},
		{"icon", get("icon", nil)},
		{"category", get("category", nil)},
		{"keywords", get("keywords", []any{})},
		{"parent", get("parent", nil)},
		{"ancestor", get("ancestor", nil)},
		{"allowed_blocks", get("allowedBlocks", nil)},
		{"provides_context", get("providesContext", object{})},
		{"uses_context", get("usesContext", []any{})},
		{"selectors", get("selectors", object{})},
		{"supports", get("supports", object{})},
		{"styles", get("styles", []any{})},
		{"textdomain", nil}, // register_block_type_from_metadata does not carry it
		{"example", get("example", nil)},
		{"editor_script_handles", handles("editorScript")},
		{"script_handles", handles("script")},
		{"view_script_handles", handles("viewScript")},
		{"view_script_module_ids", handles("viewScriptModule")},
		{"editor_style_handles", handles("editorStyle")},
		{"style_handles", handles("style")},
		{"view_style_handles", handles("viewStyle")},
		{"variations", get("variations", []any{})},
		{"block_hooks", get("blockHooks", object{})},
		{"editor_script", first("editorScript")},
		{"script", first("script")},
		{"view_script", first("viewScript")},
		{"editor_style", first("editorStyle")},
		{"style", first("style")},
	}
}

var (
	objectAttr = object{{"type", "object"}}
	stringAttr = object{{"type", "string"}}
)

// attributes are block.json's, then lock and metadata (WP_Block_Type's
// default attributes), then what each block support registers, in the
// order wp-settings.php loads the supports.
func attributes(m object) object {
	attrs := object{}
	if v, ok := m.get("attributes"); ok {
		if o, ok := v.(object); ok {
			attrs = append(attrs, o...)
		}
	}
	add := func(name string, def object) {
		if !attrs.has(name) {
			attrs = append(attrs, member{name, def})
		}
	}
	add("lock", objectAttr)
	add("metadata", objectAttr)
	sup, _ := get(m, "supports").(object)
	if has(sup, "align") {
		add("align", object{{"type", "string"}, {"enum", []any{"left", "center", "right", "wide", "full", ""}}})
	}
	if v, ok := sup.get("customClassName"); !ok || supported(v) {
		add("className", stringAttr)
	}
	colorAttrs(sup, add)
	typographyAttrs(sup, add)
	border, _ := sup.get("__experimentalBorder")
	if supported(border) {
		add("style", objectAttr)
	}
	if border == true || (isObject(border) && supported(get(border.(object), "color"))) {
		add("borderColor", stringAttr)
	}
	if has(sup, "layout") || has(sup, "__experimentalLayout") {
		add("layout", objectAttr)
	}
	for _, s := range []string{"position", "spacing", "dimensions"} {
		if has(sup, s) {
			add("style", objectAttr)
		}
	}
	// shadow.php tests array_key_exists where it means the opposite, so it
	// only rewrites a style or shadow attribute already there.
	if has(sup, "background") {
		add("style", objectAttr)
	}
	if has(sup, "ariaLabel") {
		add("ariaLabel", stringAttr)
	}
	return attrs
}

func colorAttrs(sup object, add func(string, object)) {
	c, _ := sup.get("color")
	co, isObj := c.(object)
	text := c == true || (isObj && (truthy(get(co, "text")) || !co.has("text")))
	background := c == true || (isObj && (truthy(get(co, "background")) || !co.has("background")))
	gradients := isObj && truthy(get(co, "gradients"))
	some := text || background || gradients || (isObj && (truthy(get(co, "link")) || truthy(get(co, "button")) || truthy(get(co, "heading"))))
	if some {
		add("style", objectAttr)
	}
	if background {
		add("backgroundColor", stringAttr)
	}
	if text {
		add("textColor", stringAttr)
	}
	if gradients {
		add("gradient", stringAttr)
	}
}

func typographyAttrs(sup object, add func(string, object)) {
	t, ok := get(sup, "typography").(object)
	if !ok {
		return
	}
	keys := []string{"__experimentalFontFamily", "fontSize", "__experimentalFontStyle", "__experimentalFontWeight", "__experimentalLetterSpacing",
		"lineHeight", "textAlign", "textColumns", "__experimentalTextDecoration", "__experimentalTextTransform", "__experimentalWritingMode"}
	for _, k := range keys {
		if truthy(get(t, k)) {
			add("style", objectAttr)
			break
		}
	}
	if truthy(get(t, "fontSize")) {
		add("fontSize", stringAttr)
	}
	if truthy(get(t, "__experimentalFontFamily")) {
		add("fontFamily", stringAttr)
	}
}

func get(o object, key string) any {
	v, _ := o.get(key)
	return v
}

// has is block_has_support: the feature is true or an array.
func has(sup object, feature string) bool { return supported(get(sup, feature)) }

func supported(v any) bool { return v == true || isObject(v) || isList(v) }

func isObject(v any) bool { _, ok := v.(object); return ok }

func isList(v any) bool { _, ok := v.([]any); return ok }

// truthy is PHP's truthiness of a decoded JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != "" && x != "0"
	case json.Number:
		f, err := x.Float64()
		return err == nil && f != 0
	case object:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}
