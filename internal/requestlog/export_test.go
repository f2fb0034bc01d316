package requestlog

// TxRows is txRows, for the tests.
const TxRows = txRows
