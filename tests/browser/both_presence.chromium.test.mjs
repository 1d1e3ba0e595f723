// both/presence.mjs (spectators and the players' connections) in Chromium; its twin file runs the other engine, side by side.
import scenarios from './both/presence.mjs';

scenarios('chromium');
