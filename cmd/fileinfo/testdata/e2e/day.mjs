// day.mjs spends an agent's day on a small project through the official
// MCP TypeScript SDK over stdio, as issue 32 asks:
//
//	node day.mjs --bin BIN --root WS
//
// It spawns `BIN serve --root WS` (WS: a fresh copy of day.txtar) and:
// searches at once (a code hit, or an answer that says the code index is
// still being built — never a bare "no match"); gets file_info's prompt;
// reports; finds the report by search on the first try; edits one
// function; gets a prompt that asks about that one only; reports it; and
// reads the artifact, every other function's prose intact.
//
// Each step prints one JSON line with the milliseconds since the start.
// The first failed expectation prints "FAIL <step>: <what>" on stderr
// and exits 1; success exits 0.

import { parseArgs } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

// hangBound bounds each wait for what must come; it says nothing of
// speed (two shared cores, a server built with -race).
const hangBound = 60_000;
const deadline = setTimeout(() => fail('run', 'not finished after 150 s'), 150_000);
deadline.unref();

let step = 'start';
const started = performance.now();

function fail(where, msg) {
  process.stderr.write(`FAIL ${where}: ${msg}\n`);
  process.exit(1);
}

function expect(cond, msg, got) {
  if (!cond) fail(step, got === undefined ? msg : `${msg}; got ${JSON.stringify(got, null, 2)}`);
}

function report(result) {
  process.stdout.write(JSON.stringify({ step, ms: Math.round(performance.now() - started), ...result }) + '\n');
}

function text(res) {
  return (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
}

async function ok(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  expect(!res.isError, `${name}(${JSON.stringify(args)}) failed: ${text(res)}`);
  expect(res.structuredContent && typeof res.structuredContent === 'object', `${name} returned no structured content`, res);
  return { res, out: res.structuredContent };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The six functions of calc/calc.go, and the prose the first report gives
// each: one word in each (a "marker") is in no source or doc, so a search
// for it finds only the report.
const functions = ['ParseAmount', 'FormatAmount', 'Round', 'AddTax', 'SplitEven', 'Total'];
const prose = Object.fromEntries(functions.map((name) => [name, {
  name,
  purpose: `${name} does its part of the ledger arithmetic (marker zq${name.toLowerCase()}).`,
  implementation: `1. Take the arguments of ${name}.\n2. Compute in whole cents.\n3. Return the result.`,
}]));

const { values: args } = parseArgs({ options: { bin: { type: 'string' }, root: { type: 'string' } } });
expect(args.bin && args.root, 'usage: node day.mjs --bin BIN --root WS');
const file = path.join(args.root, 'calc', 'calc.go');

const client = new Client({ name: 'fileinfo-day', version: '1.0.0' });
const transport = new StdioClientTransport({
  command: args.bin,
  args: ['serve', '--root', args.root, '--no-deps'],
  env: { ...getDefaultEnvironment(), GORACE: process.env.GORACE ?? '' },
  stderr: 'pipe',
});
let serverLog = '';
transport.stderr?.on('data', (d) => { serverLog += d; });
process.on('exit', (code) => { if (code !== 0) process.stderr.write(`server log:\n${serverLog}\n`); });

step = 'connect';
await client.connect(transport);
report({ server: client.getServerVersion() });

// The first request, before the code index can have been built: a code
// hit, or an answer that says which scope is incomplete and how far it is.
step = 'first search';
{
  const { res, out } = await ok(client, 'search_docs', { query: 'SplitEven' });
  const hit = (out.results ?? []).find((r) => r.scope === 'code' && r.symbol?.endsWith('SplitEven'));
  const building = Object.entries(out.coverage ?? {}).filter(([, v]) => v !== 'complete');
  expect(hit || building.length > 0, 'no code hit for SplitEven, and the answer does not say an index is incomplete', out);
  if (!hit) {
    expect(building.some(([scope]) => scope === 'code'), 'no code hit, but the code scope is not said to be incomplete', out.coverage);
    for (const [, v] of building) expect(text(res).includes(v), `the text does not say ${JSON.stringify(v)}`, text(res));
  }
  report({ hit: hit ? `${hit.path}:${hit.lines[0]} ${hit.symbol}` : null, coverage: out.coverage });
}

// The rest of the day runs on a complete index: wait for it, as an agent
// that read "indexing" would.
step = 'code index complete';
for (const until = Date.now() + hangBound; ;) {
  const { out } = await ok(client, 'search_docs', { query: 'SplitEven', scopes: ['code'] });
  if (out.coverage?.code === 'complete' || out.coverage?.code === undefined) {
    expect(out.results.some((r) => r.symbol?.endsWith('SplitEven')), 'the complete code index does not find SplitEven', out);
    report({ coverage: out.coverage });
    break;
  }
  expect(Date.now() < until, 'the code index is not complete after a minute', out.coverage);
  await sleep(100);
}

step = 'file_info prompt';
let fullTokens;
{
  const { res, out } = await ok(client, 'file_info', { path: 'calc/calc.go' });
  expect(out.status === 'prompt_ready' && out.parts === 1, 'want one prompt', out);
  expect(JSON.stringify([...out.symbols].sort()) === JSON.stringify([...functions].sort()), 'the prompt should ask about the six functions', out.symbols);
  for (const name of functions) expect(text(res).includes(`func ${name}(`), `the prompt lacks ${name}'s source`, text(res));
  report({ status: out.status, tokens: out.tokens, symbols: out.symbols });
  fullTokens = out.tokens;
}

step = 'report';
{
  const { out } = await ok(client, 'report_file_info', {
    path: 'calc/calc.go',
    overview: 'Money arithmetic in whole cents for the calc package: parsing, formatting, tax and splitting; README.md describes it.',
    functions: functions.map((n) => prose[n]),
  });
  expect(out.status === 'written' && out.artifact_status === 'enriched' && out.undocumented.length === 0, 'the report was not saved whole', out);
  report({ artifact: out.artifact, status: out.artifact_status });
}

// Found on the first try: the report's prose is searchable when
// report_file_info returns, well within the second the issue allows.
step = 'search finds the report';
{
  const t0 = performance.now();
  const { out } = await ok(client, 'search_docs', { query: 'zqspliteven ledger arithmetic' });
  const ms = Math.round(performance.now() - t0);
  const hit = out.results.find((r) => (r.path === 'calc/calc.go' && r.symbol?.endsWith('SplitEven')) || r.path === '.artifacts/calc/calc.go.md');
  expect(hit, 'the first search after the report does not find its prose', out);
  report({ hit: `${hit.scope} ${hit.path} ${hit.symbol ?? hit.heading ?? ''}`, searchMs: ms });
}

// The artifacts scope follows too (its index is updated in the background).
step = 'artifact searchable';
for (const t0 = performance.now(); ;) {
  const { out } = await ok(client, 'search_docs', { query: 'zqround ledger arithmetic', scopes: ['artifacts'] });
  if (out.results.some((r) => r.path === '.artifacts/calc/calc.go.md')) {
    report({ afterReportMs: Math.round(performance.now() - t0) });
    break;
  }
  expect(performance.now() - t0 < hangBound, 'the artifact is not in the artifacts scope after a minute', out);
  await sleep(20);
}

step = 'edit one function';
{
  const src = fs.readFileSync(file, 'utf8');
  const edited = src.replace('return (2*n + d) / (2 * d)', 'if d == 0 {\n\t\treturn 0\n\t}\n\treturn (2*n + d) / (2 * d)');
  expect(edited !== src, 'the edit did not apply');
  fs.writeFileSync(file, edited);
  report({ edited: 'Round' });
}

step = 'file_info asks about Round only';
{
  const { res, out } = await ok(client, 'file_info', { path: 'calc/calc.go' });
  const prompt = text(res);
  expect(out.status === 'prompt_ready', 'after the edit file_info should ask again', out);
  expect(JSON.stringify(out.symbols) === JSON.stringify(['Round']) && JSON.stringify(out.changed) === JSON.stringify(['Round']),
    'the prompt should ask about Round alone', out);
  expect(prompt.includes('if d == 0 {'), "the prompt lacks Round's new source", prompt);
  for (const other of functions.filter((n) => n !== 'Round')) {
    expect(!prompt.includes(`func ${other}(`), `the prompt shows ${other}'s source, which did not change`, prompt);
  }
  expect(out.tokens < fullTokens, `the prompt is not smaller than the whole file's (${out.tokens} >= ${fullTokens})`, out);
  report({ symbols: out.symbols, changed: out.changed, tokens: out.tokens, fullTokens });
}

step = 'report Round';
{
  const { out } = await ok(client, 'report_file_info', {
    path: 'calc/calc.go',
    functions: [{ name: 'Round', purpose: 'Divides n by d rounding half up, and answers 0 for d == 0 (marker zqzerodivisor).', implementation: '1. Return 0 when d is 0.\n2. Add half of d and divide.' }],
  });
  expect(out.status === 'written' && out.artifact_status === 'enriched' && out.undocumented.length === 0, 'the report of Round was not merged', out);
  report({ status: out.artifact_status });
}

step = 'docs intact';
{
  const rr = await client.readResource({ uri: 'fileinfo://artifacts/calc/calc.go' });
  const md = rr.contents[0]?.text ?? '';
  expect(md.includes('zqzerodivisor'), "the artifact lacks Round's new prose", md);
  expect(!md.includes('marker zqround)'), "the artifact still has Round's old prose", md);
  for (const other of functions.filter((n) => n !== 'Round')) {
    expect(md.includes(prose[other].purpose), `the artifact lost ${other}'s prose`, md);
  }
  expect(md.includes('Money arithmetic in whole cents'), 'the artifact lost the overview', md);
  const { out } = await ok(client, 'file_info', { path: 'calc/calc.go' });
  expect(out.status === 'up_to_date', 'after the second report file_info should hand back the artifact', out);
  report({ artifactBytes: md.length, status: out.status });
}

step = 'close';
await client.close();
report({});
process.exit(0);
