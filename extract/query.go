package extract

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The query language of fileinfo. Each language's queries/<name>.scm is a
// tree-sitter query whose capture names carry meaning:
//
//	@definition.<kind>  a declaration of a symbol of that Kind
//	@container.<kind>   a scope that is not a symbol itself but names the
//	                    parent of what it encloses (Rust impl blocks, Swift
//	                    extensions); it needs a @name too
//	@name               the declaration's name (in the same pattern)
//	@body               the body; the signature is the text before it
//	@receiver           an explicit parent type (Go receivers)
//	@call               a call expression, with @call.name (the called
//	                    identifier) and optionally @call.receiver
//	@call.args          the argument list of a call (split at top-level commas)
//	@call.callee        a called expression that is not a name (`f()()`,
//	                    `d["k"]()`): the call gets name "()" and the
//	                    expression as receiver
//	@bind               an assignment, with @bind.target (repeatable; none
//	                    means "<return>") and @bind.value (@bind.iter
//	                    when the targets take its items: a for loop), or
//	                    @bind.decorator for a decorator applied to @bind.target;
//	                    @bind.type, the declared type, makes a declaration
//	                    a binding without @bind.value
//	@binding            a declaration decoded by Language.bindings into
//	                    typed Bindings (Go variables, parameters, fields)
//	@binding.scope      a block or statement that ends the scope of the
//	                    bindings declared inside it (Binding.EndLine)
//	@import             an import statement, decoded by Language.imports
//	@package            the declared package or namespace of the file
//	@place              an anonymous function: a Place when no named
//	                    function encloses it (Language.places names it)
//
// Captures starting with "_" are free for predicates. Any other name is an
// error, so a typo in a query fails the tests instead of matching nothing.

type role uint8

const (
	roleIgnore role = iota
	roleDefinition
	roleContainer
	roleName
	roleBody
	roleReceiver
	roleCall
	roleCallName
	roleCallReceiver
	roleImport
	rolePackage
	roleCallArgs
	roleBind
	roleBindTarget
	roleBindValue
	roleBindDecorator
	roleCallCallee
	roleBindIter
	roleBinding
	roleBindingScope
	roleBindType
	roleRepair // read by the language's repair hook, not by run
	rolePlace
)

type compiledQuery struct {
	q       *sitter.Query
	roles   []role // by capture index
	kinds   []Kind // by capture index, for definitions and containers
	hasPred []bool // by pattern index
}

var validKinds = map[Kind]bool{
	KindFunction: true, KindMethod: true, KindClass: true, KindStruct: true,
	KindInterface: true, KindTrait: true, KindEnum: true, KindType: true,
	KindModule: true, KindNamespace: true, KindObject: true,
}

func compileQuery(src []byte, g *sitter.Language) (*compiledQuery, error) {
	q, err := sitter.NewQuery(src, g)
	if err != nil {
		return nil, err
	}
	cq := &compiledQuery{q: q}
	n := q.CaptureCount()
	cq.roles = make([]role, n)
	cq.kinds = make([]Kind, n)
	for i := uint32(0); i < n; i++ {
		name := q.CaptureNameForId(i)
		switch {
		case strings.HasPrefix(name, "_"):
			cq.roles[i] = roleIgnore
		case strings.HasPrefix(name, "definition."), strings.HasPrefix(name, "container."):
			prefix, kind, _ := strings.Cut(name, ".")
			if !validKinds[Kind(kind)] {
				q.Close()
				return nil, fmt.Errorf("capture @%s: unknown kind %q", name, kind)
			}
			cq.roles[i] = roleDefinition
			if prefix == "container" {
				cq.roles[i] = roleContainer
			}
			cq.kinds[i] = Kind(kind)
		default:
			r, ok := map[string]role{
				"name": roleName, "body": roleBody, "receiver": roleReceiver,
				"call": roleCall, "call.name": roleCallName, "call.receiver": roleCallReceiver,
				"import": roleImport, "package": rolePackage, "call.args": roleCallArgs,
				"bind": roleBind, "bind.target": roleBindTarget, "bind.value": roleBindValue, "bind.iter": roleBindIter,
				"bind.decorator": roleBindDecorator, "call.callee": roleCallCallee,
				"binding": roleBinding, "binding.scope": roleBindingScope, "bind.type": roleBindType,
				"repair": roleRepair, "place": rolePlace,
			}[name]
			if !ok {
				q.Close()
				return nil, fmt.Errorf("unknown capture @%s", name)
			}
			cq.roles[i] = r
		}
	}
	cq.hasPred = make([]bool, q.PatternCount())
	for i := range cq.hasPred {
		cq.hasPred[i] = len(q.PredicatesForPattern(uint32(i))) > 0
	}
	return cq, nil
}
