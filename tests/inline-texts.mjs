// Counts the user-visible pt-BR texts written inline in the app (src/app), the service worker (sw/), the server
// (src/server) and the shared code (src/shared), outside the one catalogue (src/shared/messages*.ts). A heuristic,
// on the TypeScript syntax tree:
//   - JSX text children that hold letters;
//   - string literals in the JSX attributes that show text (label, placeholder, title, aria-label, ...);
//   - any other string literal or template whose text has a pt-BR accented letter or a common pt-BR word.
// Left out: imports, class names, keys, CSS, test ids, object keys, type positions.
// Allowed (`allowed` below, by path): the demo seed's data, the configuration errors read by whoever deploys, and
// the AI prompts, which speak to the model, not to the user.
// `npm run texts` prints the count and each place; exit 1 above 0 (the lint step keeps it at 0).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
// TypeScript 5's syntax tree (TypeScript 7, which type-checks, is native and has no JavaScript API).
import ts from 'typescript-5';

const root = new URL('..', import.meta.url).pathname;
const folders = ['src/app', 'sw', 'src/server', 'src/shared'];
// The catalogue itself, and the files allowed their own pt-BR (see the header).
const catalogue = /^src\/shared\/messages[\w-]*\.ts$/;
const allowed = [
  /^src\/server\/seed\//, // the demo account's data
  /^src\/server\/config\.ts$/, // configuration errors, for whoever deploys
  /^src\/server\/domains\/chatbots\/prompt\.ts$/, // the chatbot's prompt to the model
  /^src\/server\/domains\/ai\/prompts\.ts$/, // the AI summary's and follow-up's prompts
];

const textAttributes = new Set([
  'label',
  'placeholder',
  'title',
  'aria-label',
  'description',
  'message',
  'alt',
  'nothingFoundMessage',
  'confirmLabel',
  'cancelLabel',
  'error',
  'hint',
  'tooltip',
  'emptyText',
  'text',
]);
const codeAttributes = new Set([
  'className',
  'key',
  'style',
  'data-testid',
  'id',
  'name',
  'type',
  'href',
  'to',
  'accept',
  'autoComplete',
  'inputMode',
  'role',
  'src',
  'variant',
  'color',
  'size',
  'c',
  'fw',
  'ta',
  'ff',
  'tt',
  'td',
  'fs',
  'lh',
  'bg',
  'justify',
  'align',
  'position',
  'mode',
  'valueFormat',
  'locale',
]);

const accented = /[áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÇ]/;
// Common pt-BR words that English code strings and identifiers do not use.
const ptWords =
  /(^|[^\p{L}])(de|da|dos|das|para|com|não|sem|uma|nos|nas|ao|em|ou|seu|sua|salvar|cancelar|apagar|editar|fechar|enviar|voltar|sair|entrar|buscar|novo|nova|nome|senha|usuário|contato|contatos|conversa|conversas|mensagem|mensagens|departamento|departamentos|agendar|agendamento|carregando|confirmar|adicionar|remover|selecione|escolha|digite|ativo|ativa|sim|não)(?=$|[^\p{L}])/iu;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function hasLetters(text) {
  return /\p{L}{2,}/u.test(text);
}

function looksPortuguese(text) {
  // Slugs, paths and file names (lowercase, no spaces) are code: route paths, help topic ids, menu entry ids.
  if (/^[a-z0-9\-/._:#]+$/.test(text)) return false;
  // Upper-case prefixes ('SIM…' ids) and a table of accented letters (accent folding) are code too.
  if (/^[A-Z0-9_]+$/.test(text) || /^[áàâãäåéèêëíìîïóòôõöúùûüçñý]+$/.test(text)) return false;
  // URLs and paths inside a text ('https://…', '/redefinir-senha?token=') are addresses, not words.
  const words = text.replace(/(https?:\/\/|\/)\S*/g, ' ');
  return accented.test(words) || ptWords.test(words);
}

// Intl's en-US weekday names, compared as codes, not shown.
const englishCodes = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat)$/;

function attributeName(node) {
  // The JSX attribute a literal sits in (directly or as {'…'} or in a conditional).
  let current = node.parent;
  while (current) {
    if (ts.isJsxAttribute(current)) return current.name.getText();
    if (
      ts.isJsxExpression(current) ||
      ts.isConditionalExpression(current) ||
      ts.isParenthesizedExpression(current) ||
      ts.isBinaryExpression(current)
    ) {
      current = current.parent;
      continue;
    }
    return undefined;
  }
  return undefined;
}

// A string that is the value of an object property that holds text ({ label: '…', title: '…' }).
function textProperty(node) {
  const parent = node.parent;
  return (
    parent !== undefined &&
    ts.isPropertyAssignment(parent) &&
    parent.initializer === node &&
    textAttributes.has(parent.name.getText().replace(/['"]/g, ''))
  );
}

function codeProperty(node) {
  const parent = node.parent;
  return ts.isPropertyAssignment(parent) && codeAttributes.has(parent.name.getText().replace(/['"]/g, ''));
}

function inIgnoredPosition(node) {
  const parent = node.parent;
  if (!parent) return true;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isImportTypeNode?.(parent))
    return true;
  if (ts.isExternalModuleReference(parent)) return true;
  if (ts.isLiteralTypeNode(parent)) return true;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  if (ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent)) return parent.name === node;
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    // Dynamic imports, console output for developers, CSS variables, test ids.
    // The server's log lines (log.info, app.log.warn) are for whoever runs it, as the console is.
    if (
      /^(import|require|console\.\w+|(.*\.)?log\.\w+|.*\.getPropertyValue|.*\.setProperty|.*querySelector(All)?)$/.test(
        callee,
      )
    )
      return true;
  }
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent) && /^(===|!==|==|!=|in)$/.test(parent.operatorToken.getText()))
    return true;
  // Errors for developers, not for users.
  if (ts.isNewExpression(parent) && /^(Error|TypeError|DOMException)$/.test(parent.expression.getText()))
    return true;
  return false;
}

// `--duplicates`: the catalogue's values given to two or more keys (issue 36: one value once). A value here is
// a key's string ({ save: 'Salvar' }), not a list's item or record nor a function's template. Prints each value with its
// keys; exit 1 above 0.
if (process.argv.includes('--duplicates')) {
  const keysOf = new Map();
  for (const path of files(join(root, 'src/shared'))) {
    const name = relative(root, path);
    if (!catalogue.test(name)) continue;
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const keyPath = (node) => {
      const names = [];
      for (let current = node; current; current = current.parent)
        if (ts.isPropertyAssignment(current) || ts.isVariableDeclaration(current))
          names.unshift(current.name.getText(source).replace(/['"]/g, ''));
      return names.join('.');
    };
    const visit = (node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        ts.isPropertyAssignment(node.parent) &&
        node.parent.initializer === node &&
        hasLetters(node.text) &&
        // A list's records (the chatbot models) repeat their codes and field names: data, not keys.
        !ts.findAncestor(node, ts.isArrayLiteralExpression)
      ) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        const keys = keysOf.get(node.text) ?? [];
        keys.push(`${name}:${line + 1} ${keyPath(node)}`);
        keysOf.set(node.text, keys);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const twice = [...keysOf].filter(([, keys]) => keys.length > 1);
  for (const [value, keys] of twice) console.log(`'${value}' ×${keys.length}: ${keys.join(', ')}`);
  console.log(`Catalogue values defined two or more times: ${twice.length}`);
  process.exit(twice.length > 0 ? 1 : 0);
}

const found = [];
for (const folder of folders) {
  for (const path of files(join(root, folder))) {
    const name = relative(root, path);
    if (catalogue.test(name) || allowed.some((pattern) => pattern.test(name))) continue;
    const source = ts.createSourceFile(
      path,
      readFileSync(path, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const report = (node, text) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(root, path)}:${line + 1}: ${text.trim().replace(/\s+/g, ' ').slice(0, 80)}`);
    };
    const visit = (node) => {
      if (ts.isJsxText(node)) {
        if (hasLetters(node.text)) report(node, node.text);
      } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        const text = node.text;
        if (hasLetters(text) && !inIgnoredPosition(node)) {
          const attribute = attributeName(node);
          if (attribute !== undefined && codeAttributes.has(attribute)) {
            // code, not text
          } else if (attribute !== undefined && textAttributes.has(attribute)) report(node, text);
          else if (looksPortuguese(text)) report(node, text);
          else if (textProperty(node) && !/^[a-z0-9\-/._:#]+$/.test(text)) report(node, text);
          else if (codeProperty(node)) {
            // { name: 'Dashboard' }: an identifier
          }
          // A capitalised word or words ('Conectado', 'Minha Equipe'): a label.
          else if (/^\p{Lu}\p{Ll}+( [\p{L}()]+)*$/u.test(text) && !englishCodes.test(text))
            report(node, text);
        }
      } else if (ts.isTemplateExpression(node)) {
        const pieces = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
        const attribute = attributeName(node);
        if (
          hasLetters(pieces.join(' ')) &&
          !inIgnoredPosition(node) &&
          !(attribute && codeAttributes.has(attribute)) &&
          pieces.some(looksPortuguese)
        )
          report(node, pieces.join(' … '));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

for (const line of found) console.log(line);
console.log(
  `Inline pt-BR texts outside src/shared/messages*.ts (src/app, sw, src/server, src/shared): ${found.length}`,
);
process.exit(found.length > 0 ? 1 : 0);
