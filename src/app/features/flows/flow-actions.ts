// The flow list's calls: create, duplicate, delete, import and export (spec 3 §2.8, §4, §8). Each one that
// changes the list refreshes the shared flows query, so the chips, transfer and scheduling pickers follow.
import { ApiError, api } from '@/app/lib/api';
import { flowsQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import { type Flow, type FlowFile, type FlowSummary, MAX_FLOW_FILE_BYTES } from '@/shared/contract/flows';
import { messages } from '@/shared/messages';
import { readFlowFile } from '@/shared/rules/flow';

/** Novo fluxo: a name; the server starts the graph with 'Início'. The dialog shows a refusal. */
export const useCreateFlow = () =>
  useCallMutation((name: string) => api('create-or-update-flow', { name }), {
    successMessage: messages.flowCreated,
    invalidates: [flowsQuery.queryKey],
  });

export const useDuplicateFlow = () =>
  useCallMutation((vars: { _id: string; name: string }) => api('duplicate-flow', vars), {
    successMessage: messages.flowDuplicated,
    invalidates: [flowsQuery.queryKey],
  });

/** The soft delete: the same call with `filed: true`. */
export const useDeleteFlow = () =>
  useCallMutation((flow: FlowSummary) => api('create-or-update-flow', { _id: flow._id, filed: true }), {
    successMessage: messages.flowDeleted,
    invalidates: [flowsQuery.queryKey],
    toastError: true,
  });

/** What an export file holds (spec 3 §4): the flow with its account, nothing the server keeps for itself. */
export const flowToFile = (flow: Flow): FlowFile => ({
  account: flow.account,
  name: flow.name,
  nodes: flow.nodes,
  connections: flow.connections,
  trigger: flow.trigger,
  keywords: flow.keywords,
  trigger_human: flow.trigger_human,
  disabled_chips: flow.disabled_chips,
});

/** A file name from a flow's name: the characters file systems refuse become '_'. */
export function flowFileName(name: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused in file names.
  const clean = name.replace(/[\u0000-\u001f/\\:*?"<>|]+/g, '_').trim();
  return `${clean || 'fluxo'}.json`;
}

/** Exportar: the flow as it is on the server, downloaded as `<name>.json`. */
export async function exportFlow(id: string) {
  let flow: Flow;
  try {
    flow = await api('get-flow', { _id: id });
  } catch {
    throw new Error(messages.flowExportFailed);
  }
  const blob = new Blob([JSON.stringify(flowToFile(flow), null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = flowFileName(flow.name);
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Reads a chosen file the way the server will (size, JSON, the file's shape), so a wrong file is named at once;
 * the server checks it again. Answers the parsed content or the pt-BR problem.
 */
export async function readImportFile(
  file: File | null,
): Promise<{ ok: true; content: unknown } | { ok: false; message: string }> {
  if (!file) return { ok: false, message: messages.flowNoFile };
  if (file.size > MAX_FLOW_FILE_BYTES) return { ok: false, message: messages.flowFileTooLarge };
  let content: unknown;
  try {
    content = JSON.parse(await file.text());
  } catch {
    return { ok: false, message: messages.flowFileInvalid };
  }
  // The account only decides what is stripped (the server's part): any id will do for the shape.
  if (!readFlowFile(content, '').ok) return { ok: false, message: messages.flowFileInvalid };
  return { ok: true, content };
}

/** The server's refusal as it says it; a failure to reach it as 'Erro ao importar fluxo'. */
export const importFailure = (err: unknown) =>
  err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : messages.flowImportFailed;

export const useImportFlow = () =>
  useCallMutation((content: unknown) => api('import-flow', { file: content }), {
    successMessage: messages.flowImported,
    invalidates: [flowsQuery.queryKey],
  });
