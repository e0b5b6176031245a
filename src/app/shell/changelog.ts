// Our own versions, newest first (the changelog dialog); their texts are in the catalogue.
import { labels } from '@/shared/messages';

export interface Release {
  version: string;
  /** dd/MM/yyyy */
  date: string;
  changes: readonly string[];
}

export const CHANGELOG: readonly Release[] = labels.changelog;
