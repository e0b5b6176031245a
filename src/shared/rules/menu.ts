// A flow's menu as numbered text, for chips without interactive messages (spec 3 §5: 'on other chips as a
// numbered text menu that also accepts the number or the title typed back'). One format for the engine's
// send and the simulator's history, so the phone shows the same text after a reload.
import type { InteractiveMenu } from '../contract/common';
import { messages } from '../messages';

export function numberedMenu(body: string, menu: Pick<InteractiveMenu, 'options'>) {
  const lines = menu.options.map((o, i) => `${i + 1}. ${o.title}`).join('\n');
  return `${body}\n\n${lines}\n\n${messages.flowMenuFooter}`;
}
