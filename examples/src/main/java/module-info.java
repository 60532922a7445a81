/** The example service as a named module: it needs only the engine. */
module io.mapsketch.example {
    requires io.mapsketch.engine;
}
