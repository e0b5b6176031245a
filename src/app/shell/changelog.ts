// Our own versions, newest first (the changelog dialog). Add an entry with every release.
import { labels } from '@/shared/messages';
export interface Release {
  version: string;
  /** dd/MM/yyyy */
  date: string;
  changes: string[];
}

export const CHANGELOG: Release[] = [
  {
    version: '0.1.0',
    date: '21/11/2026',
    changes: [
      labels.shell.changelog010Login,
      labels.shell.changelog010Menu,
      labels.shell.changelog010Profile,
      labels.shell.changelog010App,
    ],
  },
];
