// The side menu's texts for platform administration (spec 3 §2.3-§2.5): apart from the screens' own
// catalogues (messages-admin.ts, messages-billing.ts) so the shell, which draws the menu, carries only these.
export const adminMenuLabels = {
  section: 'Administração',
  financial: 'Financeiro',
} as const;
