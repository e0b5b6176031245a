// The chunks of a signed-in start: the shell and Atendimento (most users' first screen). The router renders
// them; a reload asks both at once, and the sign-in form loads them while it is being filled.
export const loadSignedIn = () => import('./signed-in');
export const loadAttendance = () => import('@/app/features/attendance/AttendancePage');

/** While the sign-in form is filled: the sign-in then waits only on its own call and the list's. */
export const preloadAfterSignIn = {
  preload: () => Promise.all([loadSignedIn(), loadAttendance()]),
};
