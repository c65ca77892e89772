// Supabase Edge entry: `supabase functions deploy create-checkout-session`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);
