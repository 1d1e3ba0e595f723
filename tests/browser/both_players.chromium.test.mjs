// both/players.mjs (players: sign-up, a pool, a rated game, profiles, the leaderboard) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/players.mjs';

scenarios('chromium');
