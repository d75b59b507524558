; JavaScript, TypeScript and TSX: the patterns the three grammars write
; with the same node names, read before queries/javascript.scm and
; queries/typescript.scm (Language.queryShared). Conventions are
; documented in lang_javascript.go.

; ---- Imports: ES modules, re-exports, TypeScript's import x =
; require("m"), require("m") and import("m"). Any call with one string
; argument is a require candidate; the imports hook keeps the calls of
; require.

(import_statement) @import

(export_statement
  source: (string)) @import

(call_expression
  function: (identifier)
  arguments: (arguments . (string) .)) @import

(call_expression
  function: (import)
  arguments: (arguments . (string))) @import
