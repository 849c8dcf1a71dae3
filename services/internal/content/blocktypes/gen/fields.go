package main

import (
	"encoding/json"

	"siteplane.dev/services/internal/platform/rest"
)

// blockType is one block.json as WordPress's block-types controller
// answers it (prepare_item_for_response's field order; absent fields take
// the schema's default). _links are the route's, not the data's.
func blockType(m object, dynamic bool) object {
	get := func(key string, def any) any {
		if v, ok := m.Get(key); ok {
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
		{Key: "attributes", Value: attributes(m)},
		{Key: "is_dynamic", Value: dynamic},
		{Key: "api_version", Value: get("apiVersion", json.Number("1"))},
		{Key: "name", Value: get("name", "")},
		{Key: "title", Value: get("title", "")},
		{Key: "description", Value: get("description", "")},
		{Key: "icon", Value: get("icon", nil)},
		{Key: "category", Value: get("category", nil)},
		{Key: "keywords", Value: get("keywords", []any{})},
		{Key: "parent", Value: get("parent", nil)},
		{Key: "ancestor", Value: get("ancestor", nil)},
		{Key: "allowed_blocks", Value: get("allowedBlocks", nil)},
		{Key: "provides_context", Value: get("providesContext", object{})},
		{Key: "uses_context", Value: get("usesContext", []any{})},
		{Key: "selectors", Value: get("selectors", object{})},
		{Key: "supports", Value: get("supports", object{})},
		{Key: "styles", Value: get("styles", []any{})},
		{Key: "textdomain", Value: nil}, // register_block_type_from_metadata does not carry it
		{Key: "example", Value: get("example", nil)},
		{Key: "editor_script_handles", Value: handles("editorScript")},
		{Key: "script_handles", Value: handles("script")},
		{Key: "view_script_handles", Value: handles("viewScript")},
		{Key: "view_script_module_ids", Value: handles("viewScriptModule")},
		{Key: "editor_style_handles", Value: handles("editorStyle")},
		{Key: "style_handles", Value: handles("style")},
		{Key: "view_style_handles", Value: handles("viewStyle")},
		{Key: "variations", Value: get("variations", []any{})},
		{Key: "block_hooks", Value: get("blockHooks", object{})},
		{Key: "editor_script", Value: first("editorScript")},
		{Key: "script", Value: first("script")},
		{Key: "view_script", Value: first("viewScript")},
		{Key: "editor_style", Value: first("editorStyle")},
		{Key: "style", Value: first("style")},
	}
}

var (
	objectAttr = object{{Key: "type", Value: "object"}}
	stringAttr = object{{Key: "type", Value: "string"}}
)

// attributes are block.json's, then lock and metadata (WP_Block_Type's
// default attributes), then what each block support registers, in the
// order wp-settings.php loads the supports.
func attributes(m object) object {
	attrs := object{}
	if v, ok := m.Get("attributes"); ok {
		if o, ok := v.(object); ok {
			attrs = append(attrs, o...)
		}
	}
	add := func(name string, def object) {
		if !hasKey(attrs, name) {
			attrs = append(attrs, rest.Member{Key: name, Value: def})
		}
	}
	add("lock", objectAttr)
	add("metadata", objectAttr)
	sup, _ := get(m, "supports").(object)
	if has(sup, "align") {
		add("align", object{{Key: "type", Value: "string"}, {Key: "enum", Value: []any{"left", "center", "right", "wide", "full", ""}}})
	}
	if v, ok := sup.Get("customClassName"); !ok || supported(v) {
		add("className", stringAttr)
	}
	colorAttrs(sup, add)
	typographyAttrs(sup, add)
	border, _ := sup.Get("__experimentalBorder")
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
	c, _ := sup.Get("color")
	co, isObj := c.(object)
	text := c == true || (isObj && (truthy(get(co, "text")) || !hasKey(co, "text")))
	background := c == true || (isObj && (truthy(get(co, "background")) || !hasKey(co, "background")))
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
	v, _ := o.Get(key)
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
