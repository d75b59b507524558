; Ruby: classes, modules, methods (instance and singleton), classes made
; with Struct.new / Class.new / Data.define / Module.new, require-style
; imports and method calls. Kinds and parents are settled in lang_ruby.go.

(class
  name: [(constant) (scope_resolution)] @name) @definition.class

(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(method
  name: [(identifier) (constant) (setter) (operator)
         (instance_variable) (class_variable) (global_variable)] @name) @definition.function

(singleton_method
  name: [(identifier) (constant) (setter) (operator)] @name) @definition.method

; Point = Struct.new(:x, :y) do ... end; refine keeps only the receivers
; and methods that make a class or module and drops other constants.
(assignment
  left: (constant) @name
  right: (call
    receiver: (constant)
    method: (identifier))) @definition.class

; Imports: require, require_relative, load and autoload with a literal
; path, and require File.expand_path(...) / File.join(__dir__, ...).
((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (string))) @import
 (#eq? @_m "require"))

((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (string))) @import
 (#eq? @_m "require_relative"))

((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (string))) @import
 (#eq? @_m "load"))

((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (simple_symbol) . (string))) @import
 (#eq? @_m "autoload"))

((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (call receiver: (constant) @_file))) @import
 (#eq? @_m "require")
 (#eq? @_file "File"))

((call
   !receiver
   method: (identifier) @_m
   arguments: (argument_list . (call receiver: (constant) @_file))) @import
 (#eq? @_m "require_relative")
 (#eq? @_file "File"))

; Calls: every method call with a name, with or without parentheses and
; receiver (`puts x`, `foo.bar`, `obj&.m`, `Foo::bar`, `X.new`), and super.
; A bare identifier (`helper`) is not a call: without scope analysis it
; cannot be told from a local variable.
(call
  !receiver
  method: [(identifier) (constant)] @call.name) @call

(call
  receiver: (_) @call.receiver
  method: [(identifier) (constant)] @call.name) @call

(super) @call @call.name

; Anonymous functions: places (File.Places) outside named functions.
(do_block) @place
(block) @place
(lambda) @place
