// sites.mjs ROOT K R: every call site (call and new expressions) of the
// JavaScript files under ROOT, in source order (file path, line, column),
// parsed with the typescript package; prints the sites whose index i has
// i % K == R: index, file:line:col, the innermost function around the
// site (its name, or <anon@line>), the callee expression and the call's
// last line.
// Run with NODE_PATH pointing at a node_modules that has typescript.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
const require = createRequire(process.env.NODE_PATH ? path.join(process.env.NODE_PATH, 'x') : import.meta.url);
const ts = require('typescript');

const [root, K, R] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(m|c)?js$/.test(e.name)) files.push(p);
  }
})(root);

function fnName(n, sf) {
  if (n.name && ts.isIdentifier(n.name)) return n.name.text;
  if (n.name) return n.name.getText(sf);
  const p = n.parent;
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isPropertyAssignment(p)) return p.name.getText(sf);
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText(sf);
  return `<anon@${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}>`;
}

const sites = [];
for (const f of files) {
  const text = fs.readFileSync(f, 'utf8').replace(/^#!.*/, '');
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const rel = path.relative(root, f);
  (function visit(n, scope) {
    if (ts.isFunctionLike(n) && n.kind !== ts.SyntaxKind.FunctionType) scope = [...scope, fnName(n, sf)];
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const { line, character } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line + 1;
      const callee = (ts.isNewExpression(n) ? 'new ' : '') + n.expression.getText(sf).replace(/\s+/g, ' ').slice(0, 60);
      sites.push([rel, line + 1, character + 1, scope.join('/') || '<module>', callee, end]);
    }
    ts.forEachChild(n, (c) => visit(c, scope));
  })(sf, []);
}
sites.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
sites.forEach((s, i) => {
  if (i % K === R) console.log(`${i}\t${s[0]}:${s[1]}:${s[2]}\t${s[3]}\t${s[4]}\t${s[5]}`);
});
console.error(`# ${sites.length} sites`);
