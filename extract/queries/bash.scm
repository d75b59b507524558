; Bash: functions (`f() {...}`, `function f {...}`, bodies of any
; compound kind), source/. imports and commands as calls.

(function_definition
  name: (word) @name) @definition.function

((command
   name: (command_name (word) @_c)
   .
   argument: (_)) @import
 (#eq? @_c "source"))

((command
   name: (command_name (word) @_c)
   .
   argument: (_)) @import
 (#eq? @_c "."))

; Calls: a command whose name is a plain word (not "$cmd"): the functions
; of the script and external programs, which is what a call graph wants.
; Shell builtins and keywords are filtered by name in lang_bash.go.
(command
  name: (command_name (word) @call.name)) @call
