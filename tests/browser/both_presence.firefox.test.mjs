// both/presence.mjs (spectators and the players' connections) in Firefox ESR; its twin file runs the other engine, side by side.
import scenarios from './both/presence.mjs';

scenarios('firefox');
