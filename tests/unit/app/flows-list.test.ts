// The flow list's own checks: the import file read as the server will (chosen, size, JSON, shape), the
// refusal shown as the server said it or as 'Erro ao importar fluxo' when the server was not reached, the
// export's file name, and the trigger column.
import { describe, expect, it } from 'vitest';
import { triggerSummary } from '@/app/features/flows/FlowsPage';
import { flowFileName, importFailure, readImportFile } from '@/app/features/flows/flow-actions';
import { ApiError } from '@/app/lib/api';
import { MAX_FLOW_FILE_BYTES } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';

const exported = {
  account: 'A'.repeat(28),
  name: 'Boas-vindas',
  nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }],
  connections: [],
  trigger: false,
  keywords: [],
  trigger_human: false,
  disabled_chips: [],
};
const file = (content: string, name = 'fluxo.json') =>
  new File([content], name, { type: 'application/json' });

describe('import file', () => {
  it('no file: Nenhum arquivo selecionado', async () => {
    expect(await readImportFile(null)).toEqual({ ok: false, message: messages.flowNoFile });
  });

  it('an exported flow is read as it is', async () => {
    expect(await readImportFile(file(JSON.stringify(exported)))).toEqual({ ok: true, content: exported });
  });

  it('not JSON, or JSON without account, name, nodes or connections: Arquivo de fluxo inválido', async () => {
    const invalid = { ok: false, message: messages.flowFileInvalid };
    expect(await readImportFile(file('isto não é json'))).toEqual(invalid);
    expect(await readImportFile(file('[]'))).toEqual(invalid);
    for (const key of ['account', 'name', 'nodes', 'connections'] as const) {
      const { [key]: _, ...rest } = exported;
      expect(await readImportFile(file(JSON.stringify(rest)))).toEqual(invalid);
    }
  });

  it('a file over the limit is refused before it is read', async () => {
    const big = file(' '.repeat(MAX_FLOW_FILE_BYTES + 1));
    expect(await readImportFile(big)).toEqual({ ok: false, message: messages.flowFileTooLarge });
  });

  it("the server's refusal is shown as it said; no answer is 'Erro ao importar fluxo'", () => {
    expect(importFailure(new ApiError(messages.flowLimitReached(1), 400))).toBe(messages.flowLimitReached(1));
    expect(importFailure(new ApiError(messages.genericServerError, 0))).toBe(messages.flowImportFailed);
    expect(importFailure(new ApiError('Bad Gateway (502)', 502))).toBe(messages.flowImportFailed);
    expect(importFailure(new TypeError('x'))).toBe(messages.flowImportFailed);
  });
});

describe('export file name', () => {
  it("is the flow's name with .json; characters file systems refuse become _", () => {
    expect(flowFileName('Boas-vindas')).toBe('Boas-vindas.json');
    expect(flowFileName('Vendas / Suporte: "VIP"?')).toBe('Vendas _ Suporte_ _VIP_.json');
    expect(flowFileName('  ')).toBe('fluxo.json');
  });
});

describe('trigger column', () => {
  it('lists the keywords of a triggered flow, else Sem gatilho', () => {
    expect(triggerSummary({ trigger: true, keywords: ['oi', ' menu '] })).toBe('Palavras-chave: oi, menu');
    expect(triggerSummary({ trigger: false, keywords: ['oi'] })).toBe('Sem gatilho');
    expect(triggerSummary({ trigger: true, keywords: [] })).toBe('Sem gatilho');
    expect(triggerSummary({ trigger: true, keywords: ['a', 'b', 'c', 'd', 'e', 'f'] })).toBe(
      'Palavras-chave: a, b, c, d, e…',
    );
  });
});
