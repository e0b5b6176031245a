// A flow's menu on the customer's phone, as WhatsApp draws it: quick replies are up to 3 buttons under the
// message; a list is one button that opens a sheet of rows (title and description). A tap answers with the
// option; the buttons stay tappable afterwards, as on WhatsApp.
import { Drawer, UnstyledButton } from '@mantine/core';
import { IconArrowBackUp, IconList } from '@tabler/icons-react';
import { useState } from 'react';
import { useBackClose } from '@/app/ui/back-stack';
import type { InteractiveMenu } from '@/shared/contract/common';
import { labels } from '@/shared/messages';
import classes from './simulator.module.css';

export interface MenuChoice {
  id: string;
  title: string;
}

interface Props {
  menu: InteractiveMenu;
  disabled: boolean;
  onChoose(choice: MenuChoice): void;
}

export function MenuReplies({ menu, disabled, onChoose }: Props) {
  const [open, setOpen] = useState(false);
  const top = useBackClose(open, () => setOpen(false));
  if (menu.kind === 'buttons')
    return (
      <div className={classes.replies}>
        {menu.options.slice(0, 3).map((o) => (
          <UnstyledButton
            key={o.id}
            className={classes.reply}
            disabled={disabled}
            onClick={() => onChoose({ id: o.id, title: o.title })}
          >
            <IconArrowBackUp size={16} aria-hidden />
            {o.title}
          </UnstyledButton>
        ))}
      </div>
    );
  const title = menu.button || labels.flowMenus.options;
  return (
    <div className={classes.replies}>
      <UnstyledButton
        className={classes.reply}
        disabled={disabled}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        <IconList size={16} aria-hidden />
        {title}
      </UnstyledButton>
      <Drawer
        opened={open}
        onClose={() => setOpen(false)}
        closeOnEscape={top}
        position="bottom"
        title={title}
        radius="md"
        closeButtonProps={{ 'aria-label': labels.flowMenus.closeOptions }}
        // A sheet as tall as its rows (at most most of the screen), as wide as the phone on a desktop.
        styles={{
          content: { flex: '0 0 auto', height: 'auto', maxHeight: '75dvh', width: '100%', maxWidth: 400 },
          inner: { justifyContent: 'center' },
          title: { fontWeight: 600 },
        }}
      >
        <ul className={classes.rows} aria-label={title}>
          {menu.options.map((o) => (
            <li key={o.id}>
              <UnstyledButton
                className={classes.listRow}
                disabled={disabled}
                onClick={() => {
                  setOpen(false);
                  onChoose({ id: o.id, title: o.title });
                }}
              >
                <span className={classes.rowTitle}>{o.title}</span>
                {o.description && <span className={classes.rowDescription}>{o.description}</span>}
              </UnstyledButton>
            </li>
          ))}
        </ul>
      </Drawer>
    </div>
  );
}
