/** How often the catching route's second middleware threw (./routes/catching.ts). */
export const catching = { thrown: 0 };
