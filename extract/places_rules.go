package extract

// The languages' place rules (placeRules): node types of their grammars.

func set(types ...string) map[string]bool {
	m := make(map[string]bool, len(types))
	for _, t := range types {
		m[t] = true
	}
	return m
}

// goPlaces: func literals in package-level var initialisers.
var goPlaces = &placeRules{
	calls: map[string]string{"call_expression": "arguments"},
	args:  set("argument_list"),
	wraps: set("literal_element", "expression_list", "parenthesized_expression", "unary_expression"),
	keys:  map[string]string{"keyed_element": ""},
	binds: map[string]string{"var_spec": "name", "const_spec": "name"},
}

// phpPlaces: closures and arrow functions in a file's statements
// (routes files) and in constant or property initialisers.
var phpPlaces = &placeRules{
	calls: map[string]string{
		"function_call_expression": "arguments", "member_call_expression": "arguments",
		"nullsafe_member_call_expression": "arguments", "scoped_call_expression": "arguments",
	},
	args:    set("arguments"),
	wraps:   set("argument", "parenthesized_expression"),
	keys:    map[string]string{"array_element_initializer": ""},
	binds:   map[string]string{"assignment_expression": "left"},
	returns: set("return_statement"),
}

// rubyPlaces: blocks and lambdas at top level or in a class or module
// body (Sinatra's routes, RSpec's examples, Rails' callbacks and scopes).
var rubyPlaces = &placeRules{
	calls: map[string]string{"call": "arguments"},
	block: "block",
	args:  set("argument_list"),
	wraps: set("parenthesized_statements"),
	keys:  map[string]string{"pair": "key"},
	binds: map[string]string{"assignment": "left"},
}

// luaPlaces: functions passed to calls or held by tables that no name
// binds (callbacks of a module's top-level code, busted's examples).
var luaPlaces = &placeRules{
	calls:   map[string]string{"function_call": "args"},
	args:    set("function_arguments"),
	wraps:   set("parenthesized_expression"),
	keys:    map[string]string{"field": "name"},
	binds:   map[string]string{"variable_declaration": "name"},
	returns: set("return_statement", "module_return_statement"),
}

// csharpPlaces: lambdas and anonymous methods in top-level statements
// (minimal APIs) and in field initialisers.
var csharpPlaces = &placeRules{
	calls: map[string]string{"invocation_expression": "arguments"},
	args:  set("argument_list"),
	wraps: set("argument", "parenthesized_expression"),
	keys:  map[string]string{},
	binds: map[string]string{"variable_declarator": "name", "assignment_expression": "left"},
}

// kotlinPlaces: lambdas in top-level and class-level property
// initialisers and calls (Ktor's routing { get("/x") { … } }).
var kotlinPlaces = &placeRules{
	calls: map[string]string{"call_expression": ""},
	args:  set("call_suffix"),
	wraps: set("annotated_lambda", "value_argument", "value_arguments", "parenthesized_expression"),
	binds: map[string]string{"property_declaration": "variable_declaration"},
}

// swiftPlaces: closures in top-level code (main.swift, Vapor's
// app.get("x") { req in … }) and in property initialisers.
var swiftPlaces = &placeRules{
	calls: map[string]string{"call_expression": ""},
	args:  set("call_suffix"),
	wraps: set("value_argument", "value_arguments", "tuple_expression"),
	binds: map[string]string{"property_declaration": "name"},
}

// rustPlaces: closures in statics and consts (`static RE: Lazy<Regex> =
// Lazy::new(|| …)`).
var rustPlaces = &placeRules{
	calls: map[string]string{"call_expression": "arguments"},
	args:  set("arguments"),
	wraps: set("parenthesized_expression"),
	binds: map[string]string{"static_item": "name", "const_item": "name"},
}

// javaPlaces: lambdas in field initialisers and static blocks.
var javaPlaces = &placeRules{
	calls: map[string]string{"method_invocation": "arguments", "object_creation_expression": "arguments"},
	args:  set("argument_list"),
	wraps: set("parenthesized_expression"),
	binds: map[string]string{"variable_declarator": "name"},
}

// cppPlaces: lambdas at namespace scope and in member initialisers.
var cppPlaces = &placeRules{
	calls: map[string]string{"call_expression": "arguments"},
	args:  set("argument_list"),
	wraps: set("parenthesized_expression"),
	binds: map[string]string{"init_declarator": "declarator"},
}

// scalaPlaces: lambdas in objects' and classes' vals and calls.
var scalaPlaces = &placeRules{
	calls: map[string]string{"call_expression": "arguments"},
	args:  set("arguments", "block"),
	wraps: set("parenthesized_expression"),
	binds: map[string]string{"val_definition": "pattern", "var_definition": "pattern"},
}

// pythonPlaces: lambdas at module and class level (`key = lambda …`,
// `path("x", lambda request: …)`).
var pythonPlaces = &placeRules{
	calls: map[string]string{"call": "arguments"},
	args:  set("argument_list"),
	wraps: set("keyword_argument", "parenthesized_expression"),
	keys:  map[string]string{"pair": "key"},
	binds: map[string]string{"assignment": "left"},
}
