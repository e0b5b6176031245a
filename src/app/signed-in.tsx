// The signed-in app: the shell, given what the features bring to the offline layer (the shell knows no
// feature; this file and the router are where features meet).
import { catchUp } from './features/attendance/data/catch-up';
import { Shell } from './shell/Shell';

export const SignedIn = () => <Shell catchUp={catchUp} />;
