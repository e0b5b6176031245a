// The platform staff's screens (spec 3 §2.2-§2.5: system roles tech_dashboard, financial_dashboard and
// customer_admin) behind one lazy import: the shell's router carries one loader for the four instead of four
// (the attendant's first screen is at its size budget, tests/size.mjs). Their charts load later still.
export { AdminCustomersPage } from './admin/AdminCustomersPage';
export { FinancialDashboardPage } from './billing/FinancialDashboardPage';
export { OffersPage } from './billing/OffersPage';
export { TechDashboardPage } from './dashboard/TechDashboardPage';
