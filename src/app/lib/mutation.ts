// The one way a screen changes something on the server: a call (by name, or a function of calls), then the
// queries it makes stale refreshed, the spec's success text shown, and the failure either toasted or left to
// the form that shows it (useFormError's afterSave, or the mutation's `error`).
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Answer, CallName, Payload } from '@/shared/contract';
import { api, errorMessage } from './api';
import { notifyError, notifySuccess } from './notify';

interface Options<Vars, Result> {
  /** The queries the change makes stale (their keys: `someQuery.queryKey`). */
  invalidates?: readonly QueryKey[];
  /** The text of the success toast. */
  successMessage?: string | ((result: Result, vars: Vars) => string);
  /** More to do with the answer (put it in a cache, close the dialog); awaited before the queries refresh. */
  onSuccess?: (result: Result, vars: Vars) => unknown;
  /** A failure as a toast (a delete, a toggle); without it the failure is the caller's (a form shows it). */
  toastError?: boolean;
}

export function useCallMutation<N extends CallName>(
  call: N,
  options?: Options<Payload<N>, Answer<N>>,
): ReturnType<typeof useMutation<Answer<N>, unknown, Payload<N>>>;
export function useCallMutation<Vars, Result>(
  run: (vars: Vars) => Promise<Result>,
  options?: Options<Vars, Result>,
): ReturnType<typeof useMutation<Result, unknown, Vars>>;
export function useCallMutation<Vars, Result>(
  callOrRun: CallName | ((vars: Vars) => Promise<Result>),
  { invalidates = [], successMessage, onSuccess, toastError = false }: Options<Vars, Result> = {},
) {
  const client = useQueryClient();
  return useMutation<Result, unknown, Vars>({
    mutationFn:
      typeof callOrRun === 'string'
        ? (vars) => api(callOrRun, vars as Payload<CallName>) as Promise<Result>
        : callOrRun,
    onSuccess: async (result, vars) => {
      if (successMessage)
        notifySuccess(typeof successMessage === 'string' ? successMessage : successMessage(result, vars));
      await onSuccess?.(result, vars);
      await Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    ...(toastError && { onError: notifyError }),
  });
}

/** A form's message: its own rule's (`problem`) first, else the failed call's pt-BR text. */
export const formMessage = (problem: string | null, mutation: { error: unknown }) =>
  problem ?? (mutation.error ? errorMessage(mutation.error) : null);

/**
 * A form's save as one mutation, for forms whose save is more than one call (check, then call, then hand the
 * answer on): `saving` while it runs; `error` is the form's own rule message (`setError`) or the failure's
 * pt-BR text.
 */
export function useFormMutation() {
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useCallMutation((work: () => Promise<void>) => work());
  return {
    saving: mutation.isPending,
    error: formMessage(problem, mutation),
    setError(message: string | null) {
      setProblem(message);
      if (!mutation.isPending) mutation.reset();
    },
    async save(work: () => Promise<void>) {
      setProblem(null);
      await mutation.mutateAsync(work).catch(() => {
        // shown as `error`
      });
    },
  };
}
