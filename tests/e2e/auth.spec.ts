import { expect, test, type Page } from './support/test';
import { uniqueEmail, verifyLink, waitForMail } from './support/mailbox';

const PASSWORD = 'correct horse 42';

async function signUp(page: Page, name: string, email: string, password = PASSWORD) {
  await page.goto('/signup');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Sign Up Free' }).click();
  await expect(page).toHaveURL(/\/verify-email/);
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();
}

async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').and(page.locator('input')).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function confirm(page: Page, email: string) {
  const mail = await waitForMail(page.request, email, /confirm/i);
  await page.goto(verifyLink(mail));
  await expect(page).toHaveURL(/\/verify-email\/success/);
  await expect(page.getByRole('heading', { level: 1, name: 'Email verified' })).toBeVisible();
}

test('signup → mail → link → Email verified → login → /home, then sign out', async ({ page }) => {
  const email = uniqueEmail('newcomer');
  await signUp(page, 'Ada Lovelace', email);
  await confirm(page, email);
  // The tokens the link carried are not kept: the user logs in next (spec 4).
  await expect(page).toHaveURL(/\/verify-email\/success$/);
  await page.getByRole('link', { name: 'Continue to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, email);
  await expect(page).toHaveURL(/\/home#?$/);
  // A brand-new account's first visit: welcomed, not welcomed back (spec 2, issue 34).
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toContainText('Welcome, Ada');
  await expect(page.getByText('Welcome back')).toHaveCount(0);

  await page.goto('/login');
  await expect(page).toHaveURL(/\/home#?$/);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
});

test('an unconfirmed account cannot log in, and says why', async ({ page }) => {
  const email = uniqueEmail('unconfirmed');
  await signUp(page, 'Grace Hopper', email);
  await logIn(page, email);
  await expect(page.getByRole('alert')).toContainText('Email not confirmed');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password is refused with the backend message', async ({ page }) => {
  const email = uniqueEmail('wrongpw');
  await signUp(page, 'Alan Turing', email);
  await confirm(page, email);
  await logIn(page, email, 'not the password');
  await expect(page.getByRole('alert')).toContainText('Invalid login credentials');
});

test('forgot password → mail → new password → login', async ({ page }) => {
  const email = uniqueEmail('forgetful');
  await signUp(page, 'Katherine Johnson', email);
  await confirm(page, email);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(`  ${email}  `);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const notice = page.getByRole('status');
  await expect(notice).toHaveText(
    `If an account exists for ${email}, a reset link is on its way. Please check your inbox.`,
  );
  await page.getByLabel('Email').fill(email + 'x');
  await expect(notice).toHaveCount(0);

  const mail = await waitForMail(page.request, email, /reset|password/i);
  await page.goto(verifyLink(mail));
  await expect(page).toHaveURL(/\/reset-password/);
  await page.getByLabel('New password').and(page.locator('input')).fill('brand new secret');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('status')).toContainText('Your password has been updated');

  await logIn(page, email, 'brand new secret');
  await expect(page).toHaveURL(/\/home#?$/);
});

test('a used confirmation link says so instead of claiming success', async ({ page }) => {
  const email = uniqueEmail('twice');
  await signUp(page, 'Mary Jackson', email);
  const mail = await waitForMail(page.request, email, /confirm/i);
  await page.goto(verifyLink(mail));
  await expect(page.getByRole('heading', { level: 1, name: 'Email verified' })).toBeVisible();
  await page.goto(verifyLink(mail));
  await expect(page.getByRole('heading', { level: 1, name: 'Email not verified' })).toBeVisible();
  await expect(page.getByRole('alert')).not.toBeEmpty();
});

test('Continue with Google goes through the labelled development sign-in and lands on /home', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Development sign-in — not Google' }),
  ).toBeVisible();
  await page.getByLabel('Name').fill('Dorothy Vaughan');
  await page.getByLabel('E-mail').fill(uniqueEmail('google'));
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page).toHaveURL(/\/home#?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Dorothy' })).toBeVisible();
});

test('signup validates on the client before calling the server', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Sign Up Free' }).click();
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Password').and(page.locator('input')).fill('12345');
  await page.getByRole('button', { name: 'Sign Up Free' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the app routes need a session: /home sends a visitor to /login', async ({ page }) => {
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to Soundloft' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  await expect(page.getByRole('link', { name: 'Sign up free' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: /Back to home/ })).toHaveAttribute('href', '/');
});
