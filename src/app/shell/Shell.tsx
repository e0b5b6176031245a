// The 'menu' layout (spec 1 §2): top bar, side menu (a drawer behind a burger on phones), global dialogs,
// and the socket. Loaded on demand after sign-in.
import { Alert, type DrawerProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconWifiOff } from '@tabler/icons-react';
import { Outlet, useNavigate } from '@tanstack/react-router';
import { useOnline } from '@/app/lib/online';
import { useCurrentUser } from '@/app/lib/user';
import { afterStepsBack, useBackClose } from '@/app/ui/back-stack';
import { ConfirmLayer } from '@/app/ui/confirm';
import { deferredPart, lazyDialog } from '@/app/ui/lazy-dialog';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { labels, messages } from '@/shared/messages';
import { ChipDrawer } from './ChipStatus';
import { SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { useRealtime } from './use-realtime';

// What the first paint does not show loads later: the phone's menu drawer and the changelog when opened, the
// past-due check (a dialog that may open by itself) once the browser is idle.
const Drawer = lazyDialog<DrawerProps>(() => import('@/app/ui/overlay-parts').then((m) => m.Drawer));
const ChangelogDialog = lazyDialog(() => import('./ChangelogDialog').then((m) => m.ChangelogDialog));
const PastDueDialog = deferredPart(
  () => import('./PastDueDialog').then((m) => m.PastDueDialog),
  () => null,
);

export function Shell() {
  const user = useCurrentUser();
  const mobile = useIsMobile();
  const online = useOnline();
  const [menuOpened, menu] = useDisclosure(false);
  const [chipsOpened, chips] = useDisclosure(false);
  const [changelogOpened, changelog] = useDisclosure(false);
  useRealtime(user);
  const navigate = useNavigate();
  const menuTop = useBackClose(menuOpened && mobile, menu.close);
  // The menu's history entry is left before the chosen screen is pushed: back from it returns to the screen
  // the menu was opened over, not to the menu.
  const navigateFromMenu = (to: string) => {
    menu.close();
    setTimeout(() => afterStepsBack(() => void navigate({ to })), 0);
  };

  return (
    // The layout is CSS (shell.css). 'right-scroll-bar-position' is react-remove-scroll's class: while a dialog
    // locks the page's scroll, the fixed top bar keeps clear of where the scrollbar was, as the page does.
    <div className="shell">
      <header className="shell-header right-scroll-bar-position">
        <TopBar
          user={user}
          menuOpened={menuOpened}
          onMenu={menu.toggle}
          onChips={chips.open}
          onChangelog={changelog.open}
        />
      </header>
      {/* A phone's menu is the drawer's: the collapsed side menu would only be drawn off screen. */}
      {!mobile && (
        <nav className="shell-navbar" aria-label={labels.shell.mainMenu}>
          <SideMenu user={user} />
        </nav>
      )}
      <Drawer
        opened={menuOpened && mobile}
        onClose={menu.close}
        closeOnEscape={menuTop}
        title={labels.shell.menu}
        size={280}
        padding={0}
        styles={{ header: { paddingInline: 'var(--mantine-spacing-md)' } }}
      >
        <nav aria-label={labels.shell.mainMenu}>
          <SideMenu user={user} onNavigate={navigateFromMenu} />
        </nav>
      </Drawer>
      <main className="shell-main" data-with-navbar={mobile ? undefined : true}>
        {!online && (
          <Alert color="yellow" icon={<IconWifiOff size={18} aria-hidden />} mb="md" role="status">
            {messages.offline}
          </Alert>
        )}
        <Outlet />
      </main>
      <ChipDrawer opened={chipsOpened} onClose={chips.close} />
      <ChangelogDialog opened={changelogOpened} onClose={changelog.close} />
      <PastDueDialog user={user} />
      <ConfirmLayer />
    </div>
  );
}
