/// A value in a `config --json` object.
enum ConfigJSONValue {
    case string(String)
    case bool(Bool)
}
