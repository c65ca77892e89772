// Supabase Edge entry: `supabase functions deploy spleeter`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);
