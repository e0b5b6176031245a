// The spec's route table (spec 1 §2) with its two layouts. 'fullscreen' screens are public; every other
// path, unknown ones included, needs a stored token. The shell and its screens are loaded on demand so
// /login stays small.

import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { AdminLoginPage } from '@/app/features/auth/AdminLoginPage';
import { FullscreenLayout } from '@/app/features/auth/FullscreenLayout';
import { LoginPage } from '@/app/features/auth/LoginPage';
import { ResetPasswordPage } from '@/app/features/auth/ResetPasswordPage';
import { canOpen, homePath, ROUTE_NAMES, safeRedirect } from '@/app/lib/access';
import { ApiError, session } from '@/app/lib/api';
import { queryClient } from '@/app/lib/query';
import { currentUserQuery } from '@/app/lib/user';
import { ErrorPage, PendingPage } from '@/app/ui/StatusPages';
import type { User } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { loadAttendance, loadSignedIn } from './start-screens';

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** The spec's route name, where it gives one (Atendimento, Templates). */
    name?: string;
  }
}

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Outlet });

// --- layout 'fullscreen': public ------------------------------------------------------------------------

const fullscreen = createRoute({
  getParentRoute: () => rootRoute,
  id: 'fullscreen',
  component: FullscreenLayout,
});

/** A signed-in visitor of /login goes straight home. */
function skipWhenSignedIn({ context }: { context: RouterContext }) {
  const user = context.queryClient.getQueryData(currentUserQuery.queryKey);
  if (session.token && user) throw redirect({ href: homePath(user) });
}

const loginSearch = (search: Record<string, unknown>): { redirect?: string } => {
  const to = safeRedirect(search.redirect);
  return to ? { redirect: to } : {};
};

const loginRoute = createRoute({
  getParentRoute: () => fullscreen,
  path: '/login',
  validateSearch: loginSearch,
  beforeLoad: skipWhenSignedIn,
  component: () => <LoginPage />,
});

const welcomeRoute = createRoute({
  getParentRoute: () => fullscreen,
  path: '/welcome',
  validateSearch: loginSearch,
  beforeLoad: skipWhenSignedIn,
  component: () => <LoginPage welcome />,
});

const adminLoginRoute = createRoute({
  getParentRoute: () => fullscreen,
  path: '/admin-login',
  component: AdminLoginPage,
});

// The recovery mail's link: public by nature.
const resetPasswordRoute = createRoute({
  getParentRoute: () => fullscreen,
  path: '/redefinir-senha',
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' ? { token: search.token } : {},
  component: ResetPasswordPage,
});

// The simulator channel's phone: public, its secret link is the key; `pair` is the QR code's pairing code.
// It draws its own full-screen phone, so it sits outside both layouts.
const simulatorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/simulador/$token',
  validateSearch: (search: Record<string, unknown>): { pair?: string } =>
    typeof search.pair === 'string' && search.pair ? { pair: search.pair } : {},
  component: lazyRouteComponent(() => import('@/app/features/simulator/SimulatorPage'), 'SimulatorPage'),
});

// --- layout 'menu': side menu and top bar, token required ---------------------------------------------

/**
 * A signed-in start (a reload, the app opened offline): the shell's chunk and Atendimento's are asked at once,
 * side by side, while the first render runs, instead of one after the other as each route renders. Nothing
 * is asked on /login (no token): its visit stays small.
 */
export function preloadSignedInStart(pathname: string) {
  if (!session.token) return;
  void loadSignedIn().catch(() => undefined);
  // Offline, the list reads the device's database: it opens meanwhile. Online it waits for the first screen.
  if (!navigator.onLine)
    void import('@/app/offline/db').then((m) => m.offlineDb().open()).catch(() => undefined);
  if (pathname === '/' || pathname.startsWith(ROUTE_NAMES.Atendimento))
    void loadAttendance().catch(() => undefined);
}

/** A screen for signed-in users: a stored token and the user (the guards read it), else /login. */
async function signedInUser({
  context,
  location,
}: {
  context: RouterContext;
  location: { href: string };
}): Promise<{ user: User }> {
  if (!session.token) throw redirect({ to: '/login', search: { redirect: location.href } });
  try {
    // The cached user answers at once (offline too); a stale one is refreshed in the background.
    const user = await context.queryClient.ensureQueryData({
      ...currentUserQuery,
      revalidateIfStale: true,
    });
    return { user };
  } catch (err) {
    if (err instanceof ApiError && err.logout) throw redirect({ to: '/login' });
    throw err;
  }
}

const menu = createRoute({
  getParentRoute: () => rootRoute,
  id: 'menu',
  beforeLoad: signedInUser,
  component: lazyRouteComponent(loadSignedIn, 'SignedIn'),
});

/** A screen the user's role or access areas do not allow: 'Permissões insuficientes.' and Atendimento. */
function guard({
  context,
  location,
  preload,
}: {
  context: { user: User };
  location: { pathname: string };
  preload: boolean;
}) {
  if (canOpen(context.user, location.pathname)) return;
  if (!preload) {
    notifications.hide('insufficient-permissions');
    notifications.show({
      id: 'insufficient-permissions',
      color: 'red',
      message: messages.insufficientPermissions,
    });
  }
  throw redirect({ to: ROUTE_NAMES.Atendimento });
}

const dashboardRoute = createRoute({
  getParentRoute: () => menu,
  path: '/',
  beforeLoad: guard,
  staticData: { name: 'Dashboard' },
  component: lazyRouteComponent(() => import('@/app/features/dashboard/DashboardPage'), 'DashboardPage'),
});

const attendanceRoute = createRoute({
  getParentRoute: () => menu,
  path: '/atendimento',
  // `c`: the open conversation, so a reload or a notification opens it.
  validateSearch: (search: Record<string, unknown>): { c?: string } =>
    typeof search.c === 'string' && /^[0-9A-Z]{28}$/.test(search.c) ? { c: search.c } : {},
  staticData: { name: 'Atendimento' },
  component: lazyRouteComponent(loadAttendance, 'AttendancePage'),
});

const profileRoute = createRoute({
  getParentRoute: () => menu,
  path: '/meu-perfil',
  component: lazyRouteComponent(() => import('@/app/features/profile/ProfilePage'), 'ProfilePage'),
});

const accountRoute = createRoute({
  getParentRoute: () => menu,
  path: '/minha-conta',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/account/AccountPage'), 'AccountPage'),
});

const helpRoute = createRoute({
  getParentRoute: () => menu,
  path: '/ajuda',
  component: lazyRouteComponent(() => import('@/app/features/help/HelpPage'), 'HelpPage'),
});

const tagsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/tags',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/tags/TagsPage'), 'TagsPage'),
});

const departmentsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/departamentos',
  beforeLoad: guard,
  component: lazyRouteComponent(
    () => import('@/app/features/departments/DepartmentsPage'),
    'DepartmentsPage',
  ),
});

const teamRoute = createRoute({
  getParentRoute: () => menu,
  path: '/equipe',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/team/TeamPage'), 'TeamPage'),
});

const quickMessagesRoute = createRoute({
  getParentRoute: () => menu,
  path: '/mensagens-rapidas',
  beforeLoad: guard,
  component: lazyRouteComponent(
    () => import('@/app/features/quick-messages/QuickMessagesPage'),
    'QuickMessagesPage',
  ),
});

const chipsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/chips',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/chips/ChipsPage'), 'ChipsPage'),
});

const scheduledMessagesRoute = createRoute({
  getParentRoute: () => menu,
  path: '/agendamento',
  beforeLoad: guard,
  component: lazyRouteComponent(
    () => import('@/app/features/scheduled-messages/ScheduledMessagesPage'),
    'ScheduledMessagesPage',
  ),
});

const historyRoute = createRoute({
  getParentRoute: () => menu,
  path: '/conversas',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/attendance/history/HistoryPage'), 'HistoryPage'),
});

const flowsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/flows',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/flows/FlowsPage'), 'FlowsPage'),
});

const chatbotsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/chatbots',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/chatbots/ChatbotsPage'), 'ChatbotsPage'),
});

// The editor ('novo' for a new chatbot) and its test chat: a chunk of its own, loaded when opened.
const chatbotEditorRoute = createRoute({
  getParentRoute: () => menu,
  path: '/chatbots/$chatbotId',
  beforeLoad: guard,
  component: lazyRouteComponent(
    () => import('@/app/features/chatbots/ChatbotEditorPage'),
    'ChatbotEditorPage',
  ),
});

const audiencesRoute = createRoute({
  getParentRoute: () => menu,
  path: '/audiencias',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/audiences/AudiencesPage'), 'AudiencesPage'),
});

const campaignsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/campanhas',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/campaigns/CampaignsPage'), 'CampaignsPage'),
});

const officialCampaignsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/campanhas-api-oficial',
  beforeLoad: guard,
  component: lazyRouteComponent(
    () => import('@/app/features/campaigns/OfficialCampaignsPage'),
    'OfficialCampaignsPage',
  ),
});

// The official numbers' message templates (spec 3 §2.14), reached from the official campaigns screen.
const templatesRoute = createRoute({
  getParentRoute: () => menu,
  path: '/templates',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/templates/TemplatesPage'), 'TemplatesPage'),
});

const followUpsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/auto-follow-ups',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/follow-ups/FollowUpsPage'), 'FollowUpsPage'),
});

// The public API's documentation and the account's key (spec 3 §2.15).
const apiRoute = createRoute({
  getParentRoute: () => menu,
  path: '/api',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/api/ApiPage'), 'ApiPage'),
});

// Webhooks (spec 3 §2.13): the list and a webhook's page, one chunk.
const webhooksRoute = createRoute({
  getParentRoute: () => menu,
  path: '/webhooks',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/webhooks/WebhooksPage'), 'WebhooksPage'),
});
const webhookRoute = createRoute({
  getParentRoute: () => menu,
  path: '/webhooks/$webhookId',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/webhooks/WebhookPage'), 'WebhookPage'),
});

const contactsRoute = createRoute({
  getParentRoute: () => menu,
  path: '/contatos',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/contacts/ContactsPage'), 'ContactsPage'),
});

// The platform staff's screens (spec 3 §2.2-§2.5): one chunk for the four (features/staff-pages.ts).
const loadStaffPages = () => import('@/app/features/staff-pages');
const offersRoute = createRoute({
  getParentRoute: () => menu,
  path: '/admin-ofertas',
  beforeLoad: guard,
  component: lazyRouteComponent(loadStaffPages, 'OffersPage'),
});
const financialDashboardRoute = createRoute({
  getParentRoute: () => menu,
  path: '/dash-financeiro',
  beforeLoad: guard,
  component: lazyRouteComponent(loadStaffPages, 'FinancialDashboardPage'),
});
// Platform administration (spec 3 §2.4) and the provider login page (§2.18), each a chunk of its own.
const adminCustomersRoute = createRoute({
  getParentRoute: () => menu,
  path: '/admin-clientes',
  beforeLoad: guard,
  component: lazyRouteComponent(loadStaffPages, 'AdminCustomersPage'),
});
const metaLoginRoute = createRoute({
  getParentRoute: () => menu,
  path: '/meta-login',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/meta-login/MetaLoginPage'), 'MetaLoginPage'),
});
// The technical dashboard (spec 3 §2.2, system role tech_dashboard): charts in a chunk of their own.
const techDashboardRoute = createRoute({
  getParentRoute: () => menu,
  path: '/dash-tecnico',
  beforeLoad: guard,
  component: lazyRouteComponent(loadStaffPages, 'TechDashboardPage'),
});

// Any other path: the not-found page, after the same token and permission checks as a real screen.
const notFoundRoute = createRoute({
  getParentRoute: () => menu,
  path: '$',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/shell/NotFoundPage'), 'NotFoundPage'),
});

// --- signed in, full screen (no menu): the flow editor --------------------------------------------------

const signedInFullscreen = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in-fullscreen',
  beforeLoad: signedInUser,
});

// Its own chunk (xyflow and its CSS): nothing of it reaches /login or Atendimento.
const flowEditorRoute = createRoute({
  getParentRoute: () => signedInFullscreen,
  path: '/flows/$flowId',
  beforeLoad: guard,
  component: lazyRouteComponent(() => import('@/app/features/flows-editor/FlowEditorPage'), 'FlowEditorPage'),
});

const routeTree = rootRoute.addChildren([
  fullscreen.addChildren([loginRoute, welcomeRoute, adminLoginRoute, resetPasswordRoute]),
  simulatorRoute,
  signedInFullscreen.addChildren([flowEditorRoute]),
  menu.addChildren([
    dashboardRoute,
    attendanceRoute,
    profileRoute,
    accountRoute,
    helpRoute,
    tagsRoute,
    departmentsRoute,
    teamRoute,
    quickMessagesRoute,
    chipsRoute,
    scheduledMessagesRoute,
    historyRoute,
    contactsRoute,
    flowsRoute,
    chatbotsRoute,
    chatbotEditorRoute,
    audiencesRoute,
    campaignsRoute,
    officialCampaignsRoute,
    templatesRoute,
    followUpsRoute,
    apiRoute,
    webhooksRoute,
    webhookRoute,
    offersRoute,
    financialDashboardRoute,
    adminCustomersRoute,
    metaLoginRoute,
    techDashboardRoute,
    notFoundRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // Query data has its own cache; the router must not hold a second, staler copy.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: PendingPage,
  defaultErrorComponent: ErrorPage,
  scrollRestoration: true,
});
