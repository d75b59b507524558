// The TypeScript checker as a reference call graph.
//
//   node oracle.mjs <root> [file ...]
//
// loads the files (slash paths relative to root; by default every .js,
// .jsx, .mjs, .cjs, .ts, .tsx, .mts and .cts file under root outside
// node_modules and dot directories) into one TypeScript program with
// allowJs and checkJs, and prints one JSON object a line for each call
// site in them — each call, `new` and tagged template outside
// declaration files:
//
//   {"file":"lib/a.js","line":3,"col":10,"name":"listen",
//    "caller":{"name":"start","line":2,"start":2,"end":5} | null,
//    "status":"project" | "external" | "unknown",
//    "callees":[{"file":"lib/b.js","name":"listen","line":7,"start":7,"end":9,"kind":"method"}],
//    "ext":"Server.listen"}
//
// line and col (1-based, col in UTF-16 units) locate the called name;
// name is that name ("super" for super(…), "()" when an expression that
// is not a name is called). caller is the innermost function around the
// call — a function, method, accessor, constructor, function expression
// or arrow function — or, for a class field's initialiser or a static
// block, the class; null for module-level code.
//
// status says what the checker resolved the call to:
//   project   a function, method, constructor or class declared in the
//             loaded files: callees lists them (several for a call
//             through a union type);
//   external  a declaration outside them (lib.*.d.ts, @types/node, a
//             package in node_modules): ext names it, callees is empty;
//   unknown   nothing the checker can name: a receiver of type any, a
//             parameter or property of a function type, a call of an
//             expression.
// f.call(…) and f.apply(…) are calls of f, and resolved as f is.
//
// A declaration is placed by its name: a function or class expression
// takes the name of the variable, property or assignment target it is
// bound to, and an anonymous one that of nothing ("" at its own start).
// line is the name's line, start and end the declaration's first and
// last lines.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceExt = /\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;

function main(argv) {
  if (argv.length < 1) {
    process.stderr.write("usage: node oracle.mjs <root> [file ...]\n");
    return 2;
  }
  const root = path.resolve(argv[0]);
  const rel = argv.length > 1 ? argv.slice(1) : walk(root, "");
  const files = rel.map((p) => path.join(root, p));
  const own = new Set(files.map((f) => path.normalize(f)));
  const program = ts.createProgram(files, {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    strict: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    jsx: ts.JsxEmit.Preserve,
    experimentalDecorators: true,
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    typeRoots: [path.join(here, "node_modules", "@types")],
    // JavaScript packages without types are read for theirs (koa's
    // delegates, http-errors).
    maxNodeModuleJsDepth: 2,
  });
  const checker = program.getTypeChecker();
  const out = [];
  for (const sf of program.getSourceFiles()) {
    const name = path.normalize(sf.fileName);
    if (!own.has(name) || sf.isDeclarationFile) continue;
    visit(sf, sf, checker, root, own, out);
  }
  process.stdout.write(out.map((o) => JSON.stringify(o)).join("\n") + (out.length ? "\n" : ""));
  return 0;
}

// walk lists the source files under dir (relative to root) outside
// node_modules and dot directories.
function walk(root, dir) {
  const out = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? dir + "/" + e.name : e.name;
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && !e.name.startsWith(".")) out.push(...walk(root, rel));
    } else if (sourceExt.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name)) {
      out.push(rel);
    }
  }
  return out.sort();
}

function visit(node, sf, checker, root, own, out) {
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) {
    const site = siteOf(node, sf, checker, root, own);
    if (site) out.push(site);
  }
  ts.forEachChild(node, (c) => visit(c, sf, checker, root, own, out));
}

// calleeExpr is the called expression of a call site.
function calleeExpr(node) {
  return ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
}

// nameNode is the node extract locates a call by: the called name.
function nameNode(expr) {
  while (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) || ts.isExpressionWithTypeArguments?.(expr)) {
    expr = expr.expression;
  }
  if (ts.isPropertyAccessExpression(expr)) return expr.name;
  if (ts.isIdentifier(expr) || expr.kind === ts.SyntaxKind.SuperKeyword) return expr;
  return null;
}

function siteOf(node, sf, checker, root, own) {
  let expr = calleeExpr(node);
  const nn = nameNode(expr);
  const at = nn ? nn.getStart(sf) : expr.getStart(sf);
  const pos = sf.getLineAndCharacterOfPosition(at);
  const site = {
    file: slash(path.relative(root, sf.fileName)),
    line: pos.line + 1,
    col: pos.character + 1,
    name: nn ? nn.text ?? "super" : "()",
    caller: callerOf(node, sf, root),
    status: "unknown",
    callees: [],
  };
  if (nn && nn.kind === ts.SyntaxKind.SuperKeyword) site.name = "super";
  let decls = resolve(node, checker);
  // f.call(this, …), f.apply(this, args): a call of f.
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(expr) &&
      (expr.name.text === "call" || expr.name.text === "apply") &&
      decls.length > 0 && decls.every((d) => isLib(d.getSourceFile(), own) && /Function/.test(containerName(d)))) {
    decls = symbolDecls(expr.expression, checker);
  }
  const project = [];
  let external = null;
  for (const d of decls) {
    const dsf = d.getSourceFile();
    if (!own.has(path.normalize(dsf.fileName))) {
      external ??= externalName(d);
      continue;
    }
    if (isFunctionLike(d) || ts.isClassLike(d)) project.push(place(d, root));
  }
  if (project.length > 0) {
    site.status = "project";
    site.callees = dedupe(project);
  } else if (external !== null) {
    site.status = "external";
    site.ext = external;
  }
  return site;
}

// resolve returns the declarations a call site calls: the resolved
// signature's, else those of the called name's symbol (a class without
// a constructor, a union's members).
function resolve(node, checker) {
  let sig;
  try {
    sig = checker.getResolvedSignature(node);
  } catch {
    sig = undefined;
  }
  const d = sig?.declaration;
  if (d && !ts.isJSDocSignature?.(d) && d.kind !== ts.SyntaxKind.JSDocFunctionType) {
    return [d];
  }
  return symbolDecls(calleeExpr(node), checker);
}

// symbolDecls are the declarations of the symbol expr names, aliases
// followed: the function-like ones and classes, or all when none is.
function symbolDecls(expr, checker) {
  const nn = nameNode(expr) ?? expr;
  let sym = checker.getSymbolAtLocation(nn);
  if (!sym) return [];
  if (sym.flags & ts.SymbolFlags.Alias) {
    try {
      sym = checker.getAliasedSymbol(sym);
    } catch {
      return [];
    }
  }
  const ds = sym.declarations ?? [];
  const fns = ds.flatMap((d) => {
    if (isFunctionLike(d) || ts.isClassLike(d)) return [d];
    // const f = () => …, exports.f = function …: the function bound.
    const init = boundFunction(d);
    return init ? [init] : [];
  });
  return fns.length > 0 ? fns : ds;
}

function boundFunction(d) {
  let init;
  if (ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d) || ts.isPropertyAssignment(d)) init = d.initializer;
  else if (ts.isBinaryExpression(d)) init = d.right;
  else if (ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent) && d.parent.left === d) init = d.parent.right;
  while (init && ts.isParenthesizedExpression(init)) init = init.expression;
  return init && (ts.isFunctionExpression(init) || ts.isArrowFunction(init) || ts.isClassExpression(init)) ? init : null;
}

function isFunctionLike(d) {
  switch (d.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
    case ts.SyntaxKind.Constructor:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ArrowFunction:
      return true;
  }
  return false;
}

// callerOf places the innermost function around node, or the class
// whose field initialiser or static block holds it; null at module level.
function callerOf(node, sf, root) {
  for (let p = node.parent; p; p = p.parent) {
    if (isFunctionLike(p) && p.kind !== ts.SyntaxKind.MethodSignature) return place(p, root);
    if ((ts.isPropertyDeclaration(p) || ts.isClassStaticBlockDeclaration(p)) && ts.isClassLike(p.parent)) {
      if (ts.isPropertyDeclaration(p) && p.initializer && isFunctionLike(p.initializer)) continue;
      return place(p.parent, root);
    }
  }
  return null;
}

// place locates a declaration by its name (see the file comment).
function place(d, root) {
  const sf = d.getSourceFile();
  let nameNode = d.name;
  let kind = kindOf(d);
  if (d.kind === ts.SyntaxKind.Constructor) {
    nameNode = d.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword) ?? null;
  }
  if (ts.isFunctionExpression(d) || ts.isArrowFunction(d) || ts.isClassExpression(d)) {
    const b = binderName(d);
    if (b) nameNode = b;
  }
  const line = (n) => sf.getLineAndCharacterOfPosition(n).line + 1;
  const start = line(d.getStart(sf));
  return {
    file: slash(path.relative(root, sf.fileName)),
    name: nameNode ? nameText(nameNode, sf) : "",
    line: nameNode ? line(nameNode.getStart(sf)) : start,
    start,
    end: line(d.getEnd()),
    kind,
  };
}

// binderName is the name a function or class expression is bound to.
function binderName(d) {
  let p = d.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression?.(p))) p = p.parent;
  if (!p) return null;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name ?? {})) return p.name;
  if (ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name;
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.right === d) {
    if (ts.isPropertyAccessExpression(p.left)) return p.left.name;
    if (ts.isIdentifier(p.left)) return p.left;
  }
  return d.name ?? null;
}

function nameText(n, sf) {
  if (n.kind === ts.SyntaxKind.ConstructorKeyword) return "constructor";
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return n.getText(sf);
}

function kindOf(d) {
  if (ts.isClassLike(d)) return "class";
  if (d.kind === ts.SyntaxKind.Constructor) return "constructor";
  if (ts.isMethodDeclaration(d) || ts.isMethodSignature(d) || ts.isAccessor(d)) return "method";
  return "function";
}

// externalName names a declaration outside the project: "Set.add",
// "Server.listen", "setTimeout".
function externalName(d) {
  const n = d.name && (ts.isIdentifier(d.name) || ts.isPrivateIdentifier(d.name)) ? d.name.text : "";
  const c = containerName(d);
  return c && n ? c + "." + n : n || c || ts.SyntaxKind[d.kind];
}

function containerName(d) {
  for (let p = d.parent; p; p = p.parent) {
    if ((ts.isInterfaceDeclaration(p) || ts.isClassLike(p) || ts.isModuleDeclaration(p)) && p.name) return p.name.text;
  }
  return "";
}

function isLib(sf, own) {
  return !own.has(path.normalize(sf.fileName));
}

function dedupe(ps) {
  const seen = new Set();
  return ps.filter((p) => {
    const k = `${p.file}:${p.line}:${p.name}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function slash(p) {
  return p.split(path.sep).join("/");
}

process.exitCode = main(process.argv.slice(2));
