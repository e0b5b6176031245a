import type { Handlers } from '../../http/context';

// TEMPORARY while issue 18 is built: replaced by the real handlers.
const unbuilt = async (): Promise<never> => {
  throw new Error('not built yet');
};

export const audiencesHandlers = {
  'get-audiences-by-user': unbuilt,
  'import-audience': unbuilt,
  'create-or-update-audience': unbuilt,
} satisfies Handlers;
