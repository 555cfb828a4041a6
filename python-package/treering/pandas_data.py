"""pandas DataFrames and Series as XGBoost 1.7 reads them.

Only called once `data.is_pandas` has seen a pandas object (so pandas is loaded already):
`import treering` never imports pandas. The frame becomes a numpy array with XGBoost 1.7's
feature names and types; the numbers are the ones 1.7 hands to its library (category
codes with -1 as missing, nullable columns as float32 with pd.NA as NaN), so models and
predictions match.
"""
import numpy as np

CATEGORICAL = "c"

# dtype name -> XGBoost feature type, as 1.7 maps them (bool is an indicator "i").
DTYPE_FEATURE_TYPE = {
    "int8": "int", "int16": "int", "int32": "int", "int64": "int",
    "uint8": "int", "uint16": "int", "uint32": "int", "uint64": "int",
    "float16": "float", "float32": "float", "float64": "float",
    "bool": "i",
    # pandas' nullable ("masked") dtypes; Int8/UInt* are not among them in 1.7
    "Int16": "int", "Int32": "int", "Int64": "int",
    "Float32": "float", "Float64": "float", "boolean": "i",
}

ENABLE_CAT_ERR = ("When categorical type is supplied, The experimental DMatrix parameter"
                  "`enable_categorical` must be set to `True`.")

# Meta fields that may have several columns (a DataFrame of them is kept 2-D).
MATRIX_META = {"base_margin", "label"}


def _types():
    from pandas.api import types  # lazily: only pandas input needs it
    return types


def _is_nullable(dtype):
    types = _types()
    masked = {"Int16", "Int32", "Int64", "Float32", "Float64", "category"}
    return ((types.is_integer_dtype(dtype) and dtype.name in masked)
            or (types.is_bool_dtype(dtype) and dtype.name == "boolean")
            or (types.is_float_dtype(dtype) and dtype.name in masked)
            or types.is_categorical_dtype(dtype))


def _invalid_dtype_error(data):
    # 1.7's message, column list included (a Series has one dtype and no list).
    detail = ""
    if hasattr(data, "dtypes") and hasattr(data.dtypes, "__iter__"):
        bad = [f"{data.columns[i]}: {dtype}" for i, dtype in enumerate(data.dtypes)
               if dtype.name not in DTYPE_FEATURE_TYPE]
        detail = " Invalid columns:" + ", ".join(bad)
    return ValueError("DataFrame.dtypes for data must be int, float, bool or category. "
                      f"{ENABLE_CAT_ERR} {detail}")


def _check_dtypes(frame, enable_categorical):
    types = _types()
    for dtype in frame.dtypes:
        cat = types.is_categorical_dtype(dtype)
        if not (dtype.name in DTYPE_FEATURE_TYPE or types.is_sparse(dtype)
                or (_is_nullable(dtype) and not cat) or (cat and enable_categorical)):
            raise _invalid_dtype_error(frame)


def _feature_info(frame, enable_categorical):
    import pandas as pd
    types = _types()
    if isinstance(frame.columns, pd.MultiIndex):
        names = [" ".join(str(x) for x in col) for col in frame.columns]
    else:
        names = [str(col) for col in frame.columns]
    ftypes = []
    for dtype in frame.dtypes:
        if types.is_sparse(dtype):
            ftypes.append(DTYPE_FEATURE_TYPE[dtype.subtype.name])
        elif types.is_categorical_dtype(dtype) and enable_categorical:
            ftypes.append(CATEGORICAL)
        else:
            ftypes.append(DTYPE_FEATURE_TYPE[dtype.name])
    return names, ftypes


def _numeric_values(frame):
    """The frame's numbers: category codes (-1 -> NaN) and nullable columns as float32."""
    types = _types()
    cat_cols = [c for c, t in zip(frame.columns, frame.dtypes) if types.is_categorical_dtype(t)]
    null_cols = [c for c, t in zip(frame.columns, frame.dtypes) if _is_nullable(t)]
    if cat_cols or null_cols:
        frame = frame.copy()  # never modify the caller's frame
    if cat_cols:
        codes = frame[cat_cols].apply(lambda col: col.cat.codes).astype(np.float32)
        frame[cat_cols] = codes.replace(-1.0, np.nan)
    if null_cols:
        frame[null_cols] = frame[null_cols].astype(np.float32)
    values = frame.values
    if values.dtype.hasobject or values.dtype in (np.float16, np.bool_):
        values = values.astype(np.float32)  # mixed bool/number frames come back as objects
    return values


def transform_dataframe(frame, enable_categorical, feature_names=None, feature_types=None):
    """(2-D float array, feature names, feature types) of a DataFrame, as XGBoost 1.7."""
    _check_dtypes(frame, enable_categorical)
    names, ftypes = _feature_info(frame, enable_categorical)
    return (_numeric_values(frame), names if feature_names is None else feature_names,
            ftypes if feature_types is None else feature_types)


def transform_series(series, enable_categorical):
    """A Series as one column. As 1.7, category codes keep -1 for a missing value here
    (its DataFrame path turns them into NaN) and the Series gives no names or types."""
    types = _types()
    cat = types.is_categorical_dtype(series.dtype)
    if series.dtype.name not in DTYPE_FEATURE_TYPE and not (cat and enable_categorical):
        raise _invalid_dtype_error(series)
    if cat and enable_categorical:
        series = series.cat.codes
    return series.values.reshape(series.shape[0], 1).astype("float")


def meta_values(data, field, dtype):
    """A Series or DataFrame given as label, weight, base_margin, group, qid, ..."""
    import pandas as pd
    types = _types()
    if isinstance(data, pd.Series):
        if types.is_sparse(data.dtype):
            data = data.sparse.to_dense()
        if _is_nullable(data.dtype) and not types.is_categorical_dtype(data.dtype):
            return data.to_numpy(dtype=np.float64, na_value=np.nan)
        return data.values.astype("float")
    _check_dtypes(data, False)
    if len(data.columns) > 1 and field not in MATRIX_META:
        raise ValueError(f"DataFrame for {field} cannot have multiple columns")
    return _numeric_values(data).astype(dtype)
